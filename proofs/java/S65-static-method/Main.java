class Units {
    static double toCm(double inches) {
        return inches * 2.54;
    }
}

public class Main {
    static String name() {
        return "Main";
    }

    public static void main(String[] args) {
        System.out.println(Units.toCm(2));
        System.out.println(Main.name());
    }
}
