using System;

public class Wheel
{
    public void Spin()
    {
        Console.WriteLine("Wheel.Spin");
    }
}

public class Axle
{
    public Wheel Left = new Wheel();
}

public class Car
{
    public Axle Front = new Axle();
}

public class Program
{
    public static void Main()
    {
        Car car = new Car();
        car.Front.Left.Spin();
    }
}
