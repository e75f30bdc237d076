using System;

namespace Lib
{
    public static class Util
    {
        public static void Helper()
        {
            Console.WriteLine("Util.Helper");
        }
    }

    public static class Tools
    {
        public static void Run()
        {
            Console.WriteLine("Tools.Run");
        }
    }
}
