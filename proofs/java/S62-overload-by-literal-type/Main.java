public class Main {
    static void show(int x) {
        System.out.println("show(int) " + x);
    }

    static void show(String s) {
        System.out.println("show(String) " + s);
    }

    static void show(double d) {
        System.out.println("show(double) " + d);
    }

    public static void main(String[] args) {
        show(7);
        show("seven");
        show(2.5);
    }
}
