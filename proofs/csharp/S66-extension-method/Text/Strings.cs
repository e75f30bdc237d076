namespace Text
{
    public static class Strings
    {
        public static string Shout(this string s)
        {
            return s.ToUpper() + "!";
        }

        public static string Repeat(this string s, int times)
        {
            string r = "";
            for (int i = 0; i < times; i++)
            {
                r += s;
            }
            return r;
        }

        public static string Repeat(this int n, int times)
        {
            return (n * times).ToString();
        }
    }
}
