using System;

public class Point
{
    public Point(int x, int y)
    {
        Console.WriteLine("Point(" + x + ", " + y + ")");
    }
}

public class Marker
{
    public string Label;
}

public class Program
{
    public static void Main()
    {
        new Point(1, 2);
        Marker m = new Marker { Label = "m" };
        Console.WriteLine(m.Label);
    }
}
