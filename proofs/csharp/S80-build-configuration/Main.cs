using System;

public static class Clock
{
#if NET20
    public static string Now()
    {
        return "the NET20 build";
    }
#else
    public static string Now()
    {
        return "the default build";
    }
#endif
}

public class Program
{
    public static void Main()
    {
        Console.WriteLine(Clock.Now());
#if DEBUG_TRACE
        Console.WriteLine(Clock.Now());
#endif
    }
}
