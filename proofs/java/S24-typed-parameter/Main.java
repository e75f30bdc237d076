class Printer {
    void emit(String text) {
        System.out.println("Printer.emit " + text);
    }
}

class Logger {
    void emit(String text) {
        System.out.println("Logger.emit " + text);
    }
}

public class Main {
    static void send(Printer p, String text) {
        p.emit(text);
    }

    public static void main(String[] args) {
        send(new Printer(), "hello");
    }
}
