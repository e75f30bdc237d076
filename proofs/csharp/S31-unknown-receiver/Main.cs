using System;

public class Greeter
{
    public void Greet()
    {
        Console.WriteLine("Greeter.Greet");
    }
}

public class Program
{
    static void Apply<T>(T value, Action<T> action)
    {
        action(value);
    }

    public static void Main()
    {
        Apply(new Greeter(), g => g.Greet());
    }
}
