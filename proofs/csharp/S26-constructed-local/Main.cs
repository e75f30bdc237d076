using System;

public class Lamp
{
    public void On()
    {
        Console.WriteLine("Lamp.On");
    }
}

public class Program
{
    public static void Main()
    {
        var lamp = new Lamp();
        lamp.On();
    }
}
