import pkg.Tools;

public class Main {
    public static void main(String[] args) {
        pkg.Util.helper();
        Tools.run();
    }
}
