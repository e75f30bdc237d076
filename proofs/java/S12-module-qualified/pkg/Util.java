package pkg;

public class Util {
    public static void helper() {
        System.out.println("pkg.Util.helper");
    }
}
