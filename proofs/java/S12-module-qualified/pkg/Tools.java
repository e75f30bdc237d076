package pkg;

public class Tools {
    public static void run() {
        System.out.println("pkg.Tools.run");
    }
}
