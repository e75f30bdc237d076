using System;

public partial class Report
{
    public void Print()
    {
        Console.WriteLine(Title());
        this.Footer();
    }
}

public class Program
{
    public static void Main()
    {
        new Report().Print();
    }
}
