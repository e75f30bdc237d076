using System;

public class Program
{
    static int Square(int x)
    {
        Console.WriteLine("square " + x);
        return x * x;
    }

    public static void Main()
    {
        int r = Square(4);
        Console.WriteLine(r);
    }
}
