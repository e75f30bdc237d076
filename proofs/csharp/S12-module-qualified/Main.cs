using Lib;

public class Program
{
    public static void Main()
    {
        Lib.Util.Helper();
        Tools.Run();
    }
}
