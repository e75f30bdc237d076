using System;

public class Engine
{
    public void Start()
    {
        Console.WriteLine("Engine.Start");
    }
}

public class Car
{
    private readonly Engine engine = new Engine();

    public Engine GetEngine()
    {
        return engine;
    }
}

public class Program
{
    public static void Main()
    {
        new Car().GetEngine().Start();
    }
}
