class Pizza:
    def __init__(self, size, toppings):
        self.size = size
        self.toppings = toppings


class PizzaBuilder:
    def __init__(self):
        self._size = 0
        self._toppings = []

    def size(self, n) -> "PizzaBuilder":
        self._size = n
        return self

    def topping(self, t) -> "PizzaBuilder":
        self._toppings.append(t)
        return self

    def build(self) -> Pizza:
        return Pizza(self._size, self._toppings)


pizza = (
    PizzaBuilder()
    .size(30)
    .topping("cheese")
    .topping("basil")
    .build()
)
print(pizza.size, pizza.toppings)
