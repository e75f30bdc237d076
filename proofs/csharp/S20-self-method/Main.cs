using System;

public class Counter
{
    private int count;

    void Step()
    {
        count++;
        Console.WriteLine("step " + count);
    }

    public void Twice()
    {
        Step();
        this.Step();
    }
}

public class Program
{
    public static void Main()
    {
        new Counter().Twice();
    }
}
