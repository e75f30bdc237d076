using System;
using System.Collections.Generic;
using System.Text;

public class Program
{
    public static void Main()
    {
        List<int> xs = new List<int>();
        xs.Add(3);
        StringBuilder sb = new StringBuilder();
        sb.Append("n=").Append(xs.Count);
        Console.WriteLine(sb.ToString().Trim());
    }
}
