public class Main {
    private int count;

    void bump() {
        count++;
        this.report();
        log("bumped");
    }

    void report() {
        System.out.println("report " + count);
    }

    void log(String msg) {
        System.out.println("log " + msg);
    }

    public static void main(String[] args) {
        Main m = new Main();
        m.bump();
    }
}
