class Animal:
    def speak(self):
        print("Animal.speak")


class Dog(Animal):
    def fetch(self):
        print("Dog.fetch")


d = Dog()
d.speak()
d.fetch()
