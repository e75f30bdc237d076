using System;
using Text;

public class Program
{
    public static void Main()
    {
        string s = "extension";
        Console.WriteLine(s.Shout());
        Console.WriteLine("x".Repeat(3));
        Console.WriteLine(Strings.Shout("static form"));
        Console.WriteLine(s.ToUpper());
    }
}
