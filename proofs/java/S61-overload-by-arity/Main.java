public class Main {
    static int area(int side) {
        System.out.println("area(side)");
        return side * side;
    }

    static int area(int w, int h) {
        System.out.println("area(w, h)");
        return w * h;
    }

    public static void main(String[] args) {
        System.out.println(area(3));
        System.out.println(area(2, 5));
    }
}
