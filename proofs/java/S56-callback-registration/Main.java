import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

public class Main {
    private final List<Runnable> handlers = new ArrayList<>();

    void onStart() {
        System.out.println("onStart");
    }

    static int length(String s) {
        return s.length();
    }

    void register(Runnable r) {
        handlers.add(r);
    }

    void run() {
        register(this::onStart);
        Function<String, Integer> f = Main::length;
        System.out.println(f.apply("abcd"));
        for (Runnable h : handlers) {
            h.run();
        }
    }

    public static void main(String[] args) {
        new Main().run();
    }
}
