using System;

public static class MathUtil
{
    public static int Twice(int x)
    {
        return 2 * x;
    }
}

public class Program
{
    public static void Main()
    {
        Console.WriteLine(MathUtil.Twice(21));
    }
}
