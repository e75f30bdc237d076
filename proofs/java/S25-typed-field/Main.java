class Engine {
    void start() {
        System.out.println("Engine.start");
    }
}

class Wheel {
    void start() {
        System.out.println("Wheel.start");
    }
}

class Car {
    private final Engine engine = new Engine();
    private Wheel wheel;

    Car(Wheel wheel) {
        this.wheel = wheel;
    }

    void drive() {
        this.engine.start();
        wheel.start();
    }
}

public class Main {
    public static void main(String[] args) {
        Car car = new Car(new Wheel());
        car.drive();
    }
}
