using System;

public class Program
{
    static void Show(int n)
    {
        Console.WriteLine("Show(int)");
    }

    static void Show(string s)
    {
        Console.WriteLine("Show(string)");
    }

    static void Show(double d)
    {
        Console.WriteLine("Show(double)");
    }

    public static void Main()
    {
        Show(1);
        Show("one");
        Show(1.5);
    }
}
