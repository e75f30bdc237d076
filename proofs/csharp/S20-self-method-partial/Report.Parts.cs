using System;

public partial class Report
{
    string Title()
    {
        return "a partial class: one type, two files";
    }

    void Footer()
    {
        Console.WriteLine("footer");
    }
}
