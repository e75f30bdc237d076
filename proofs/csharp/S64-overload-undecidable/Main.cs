using System;
using System.Collections.Generic;

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

    public static void Main()
    {
        Dictionary<string, int> counts = new Dictionary<string, int>();
        counts["a"] = 1;
        Show(counts.Count);
    }
}
