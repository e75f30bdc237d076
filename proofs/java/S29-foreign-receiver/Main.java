import java.util.ArrayList;
import java.util.List;

class Bag {
    void add(String item) {
        System.out.println("Bag.add " + item);
    }
}

public class Main {
    public static void main(String[] args) {
        List<String> l = new ArrayList<>();
        l.add("a");
        l.add("b");
        System.out.println(l.size());
        StringBuilder sb = new StringBuilder();
        sb.append("x").append(l.get(0));
        System.out.println(sb.toString());
    }
}
