using System;

public class Box
{
    public int Size()
    {
        return 7;
    }
}

public class Program
{
    public static void Main()
    {
        object o = new Box();
        int n = ((Box)o).Size();
        Console.WriteLine(n);
        Console.WriteLine(typeof(Box).Name);
        Console.WriteLine(nameof(Box.Size));
        Console.WriteLine((long)n);
    }
}
