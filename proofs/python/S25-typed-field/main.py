class Engine:
    def start(self):
        print("Engine.start")


class Wheel:
    def start(self):
        print("Wheel.start")


class Car:
    wheel: Wheel

    def __init__(self, engine, wheel):
        self.engine: Engine = engine
        self.wheel = wheel

    def drive(self):
        self.engine.start()
        self.wheel.start()


car = Car(Engine(), Wheel())
car.drive()
