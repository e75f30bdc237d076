import java.util.List;

public class Main {
    static void show(int x) {
        System.out.println("show(int) " + x);
    }

    static void show(String s) {
        System.out.println("show(String) " + s);
    }

    static void show(boolean b) {
        System.out.println("show(boolean) " + b);
    }

    public static void main(String[] args) {
        List<String> words = List.of("alpha", "beta");
        show(words.get(0));
        show(Integer.parseInt("42"));
    }
}
