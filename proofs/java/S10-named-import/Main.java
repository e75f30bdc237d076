import static pkg.Util.helper;
import static pkg.Util.twice;

public class Main {
    public static void main(String[] args) {
        helper("main");
        System.out.println(twice(21));
    }
}
