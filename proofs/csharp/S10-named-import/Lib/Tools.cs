using System;

namespace Lib
{
    public static class Tools
    {
        public static void Greet(string who)
        {
            Console.WriteLine("hello " + who);
        }
    }
}
