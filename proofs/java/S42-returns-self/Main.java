class Counter {
    private int n;

    Counter inc() {
        n++;
        return this;
    }

    Counter add(int k) {
        n += k;
        return this;
    }

    void show() {
        System.out.println("Counter " + n);
    }
}

public class Main {
    public static void main(String[] args) {
        Counter c = new Counter();
        c.inc().add(5).inc().show();
    }
}
