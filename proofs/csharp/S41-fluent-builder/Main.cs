using System;

public class Request
{
    public override string ToString()
    {
        return "request";
    }
}

public class Builder
{
    public Builder Host(string h)
    {
        Console.WriteLine("host " + h);
        return this;
    }

    public Builder Port(int p)
    {
        Console.WriteLine("port " + p);
        return this;
    }

    public Request Build()
    {
        return new Request();
    }
}

public class Program
{
    public static void Main()
    {
        Request r = new Builder()
            .Host("example.org")
            .Port(80)
            .Build();
        Console.WriteLine(r);
    }
}
