class Cat:
    def speak(self):
        print("Cat.speak")


class Robot:
    def speak(self):
        print("Robot.speak")


def make_noise(thing):
    thing.speak()


make_noise(Cat())
make_noise(Robot())
