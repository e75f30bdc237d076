using System;

public class Animal
{
    public void Breathe()
    {
        Console.WriteLine("Animal.Breathe");
    }
}

public class Dog : Animal
{
    public void Fetch()
    {
        Console.WriteLine("Dog.Fetch");
    }
}

public class Program
{
    public static void Main()
    {
        Dog d = new Dog();
        d.Breathe();
        d.Fetch();
    }
}
