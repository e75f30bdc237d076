interface Shape {
    int area();
}

class Square implements Shape {
    private final int side;

    Square(int side) {
        this.side = side;
    }

    public int area() {
        return side * side;
    }
}

class Rect implements Shape {
    public int area() {
        return 6;
    }
}

public class Main {
    static int total(Shape a, Shape b) {
        return a.area() + b.area();
    }

    public static void main(String[] args) {
        Shape s = new Square(3);
        System.out.println(s.area());
        System.out.println(total(s, new Rect()));
    }
}
