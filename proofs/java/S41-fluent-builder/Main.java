class Pizza {
    final int size;
    final String toppings;

    Pizza(int size, String toppings) {
        this.size = size;
        this.toppings = toppings;
    }
}

class PizzaBuilder {
    private int size;
    private final StringBuilder toppings = new StringBuilder();

    PizzaBuilder size(int n) {
        this.size = n;
        return this;
    }

    PizzaBuilder topping(String t) {
        toppings.append(t).append(' ');
        return this;
    }

    Pizza build() {
        return new Pizza(size, toppings.toString().trim());
    }
}

public class Main {
    public static void main(String[] args) {
        Pizza p = new PizzaBuilder()
                .size(30)
                .topping("cheese")
                .topping("basil")
                .build();
        System.out.println(p.size + " " + p.toppings);
    }
}
