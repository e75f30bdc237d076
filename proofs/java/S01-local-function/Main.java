public class Main {
    static int square(int x) {
        System.out.println("square " + x);
        return x * x;
    }

    public static void main(String[] args) {
        int r = square(4);
        System.out.println(r);
    }
}
