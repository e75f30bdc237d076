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
    public Engine Motor { get; set; }

    public void Go()
    {
        Motor.Start();
    }
}

public class Program
{
    public static void Main()
    {
        Car c = new Car { Motor = new Engine() };
        c.Go();
        c.Motor.Start();
    }
}
