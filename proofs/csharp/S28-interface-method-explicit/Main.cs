using System;

public interface IShape
{
    string Describe();
}

public class Circle : IShape
{
    string IShape.Describe()
    {
        return "an explicit implementation";
    }

    public string Describe()
    {
        return "the class's own method";
    }
}

public class Program
{
    public static void Main()
    {
        Circle c = new Circle();
        Console.WriteLine(c.Describe());
        IShape s = c;
        Console.WriteLine(s.Describe());
        Console.WriteLine(((IShape)c).Describe());
    }
}
