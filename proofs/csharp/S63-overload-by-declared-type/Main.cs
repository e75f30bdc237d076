using System;

public class Shape
{
}

public class Circle : Shape
{
}

public class Program
{
    static void Draw(Shape s)
    {
        Console.WriteLine("Draw(Shape)");
    }

    static void Draw(Circle c)
    {
        Console.WriteLine("Draw(Circle)");
    }

    static void Draw(object o)
    {
        Console.WriteLine("Draw(object)");
    }

    public static void Main()
    {
        Shape s = new Shape();
        Circle c = new Circle();
        Draw(s);
        Draw(c);
        Draw("text");
    }
}
