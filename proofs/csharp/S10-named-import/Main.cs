using static Lib.Tools;

public class Program
{
    public static void Main()
    {
        Greet("world");
    }
}
