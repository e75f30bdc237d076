class Lamp:
    def __init__(self, room):
        self.room = room

    def switch_on(self):
        print("Lamp.switch_on", self.room)


class Fan:
    def switch_on(self):
        print("Fan.switch_on")


def main():
    a = Lamp("hall")
    a.switch_on()
    b = Fan()
    b.switch_on()


main()
