class Base {
    void greet() {
        System.out.println("Base.greet");
    }
}

class Child extends Base {
    @Override
    void greet() {
        super.greet();
        System.out.println("Child.greet");
    }
}

public class Main {
    public static void main(String[] args) {
        Child c = new Child();
        c.greet();
    }
}
