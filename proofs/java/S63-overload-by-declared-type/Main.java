class Animal {
}

class Dog extends Animal {
}

class Puppy extends Dog {
}

public class Main {
    static void greet(Animal a) {
        System.out.println("greet(Animal)");
    }

    static void greet(Dog d) {
        System.out.println("greet(Dog)");
    }

    public static void main(String[] args) {
        Animal a = new Dog();
        Dog d = new Dog();
        Puppy p = new Puppy();
        greet(a);
        greet(d);
        greet(p);
    }
}
