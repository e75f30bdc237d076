using System;

public interface IShape
{
    int Area();
}

public class Square : IShape
{
    private readonly int side;

    public Square(int side)
    {
        this.side = side;
    }

    public int Area()
    {
        return side * side;
    }
}

public class Program
{
    static int Total(IShape a, IShape b)
    {
        return a.Area() + b.Area();
    }

    public static void Main()
    {
        IShape s = new Square(3);
        Console.WriteLine(s.Area());
        Console.WriteLine(Total(s, new Square(2)));
    }
}
