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

    public void Go()
    {
        engine.Start();
        this.engine.Start();
    }
}

public class Program
{
    public static void Main()
    {
        new Car().Go();
    }
}
