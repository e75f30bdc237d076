using T = Lib.Tools;

public class Program
{
    public static void Main()
    {
        T.Greet("alias");
    }
}
