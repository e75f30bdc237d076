class Animal {
    void speak() {
        System.out.println("Animal.speak");
    }
}

class Dog extends Animal {
    void fetch() {
        System.out.println("Dog.fetch");
    }
}

public class Main {
    public static void main(String[] args) {
        Dog d = new Dog();
        d.speak();
        d.fetch();
    }
}
