using System;

public class Counter
{
    private int n;

    public Counter Add(int k)
    {
        n += k;
        return this;
    }

    public void Show()
    {
        Console.WriteLine("n=" + n);
    }
}

public class Program
{
    public static void Main()
    {
        new Counter().Add(1).Add(2).Show();
    }
}
