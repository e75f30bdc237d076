class Point {
    final int x;
    final int y;

    Point(int x, int y) {
        this.x = x;
        this.y = y;
        System.out.println("Point(" + x + ", " + y + ")");
    }
}

class Marker {
    String label = "marker";
}

public class Main {
    public static void main(String[] args) {
        Point p = new Point(1, 2);
        Marker m = new Marker();
        System.out.println(m.label + " " + (p.x + p.y));
    }
}
