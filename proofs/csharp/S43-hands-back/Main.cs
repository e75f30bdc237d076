using System;
using System.Collections.Generic;

public class Node
{
    private readonly string name;

    public Node(string name)
    {
        this.name = name;
    }

    public void Visit()
    {
        Console.WriteLine("visit " + name);
    }
}

public class Program
{
    public static void Main()
    {
        List<Node> nodes = new List<Node> { new Node("a"), new Node("b") };
        nodes[0].Visit();
        foreach (var n in nodes)
        {
            n.Visit();
        }
        Dictionary<string, Node> byName = new Dictionary<string, Node>();
        byName["c"] = new Node("c");
        byName["c"].Visit();
    }
}
