package pkg;

public class Util {
    public static void helper(String who) {
        System.out.println("Util.helper from " + who);
    }

    public static int twice(int x) {
        return x * 2;
    }
}
