using System;

public class Engine
{
    public void Start()
    {
        Console.WriteLine("Engine.Start");
    }
}

public class Program
{
    static void Drive(Engine e)
    {
        e.Start();
    }

    public static void Main()
    {
        Drive(new Engine());
    }
}
