using System;

public class Program
{
    static int Area(int side)
    {
        Console.WriteLine("Area(side)");
        return side * side;
    }

    static int Area(int w, int h)
    {
        Console.WriteLine("Area(w, h)");
        return w * h;
    }

    public static void Main()
    {
        Console.WriteLine(Area(3));
        Console.WriteLine(Area(2, 5));
    }
}
