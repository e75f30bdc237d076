using System;

public class Program
{
    static void Report()
    {
        Console.WriteLine("Program.Report");
    }

    static void Run(Action Report)
    {
        Report();
    }

    public static void Main()
    {
        Run(() => Console.WriteLine("the lambda"));
        Report();
    }
}
