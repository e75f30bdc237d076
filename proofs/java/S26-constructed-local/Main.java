class Lamp {
    void on() {
        System.out.println("Lamp.on");
    }
}

class Fan {
    void on() {
        System.out.println("Fan.on");
    }
}

public class Main {
    public static void main(String[] args) {
        var a = new Lamp();
        a.on();
        Fan b = new Fan();
        b.on();
    }
}
