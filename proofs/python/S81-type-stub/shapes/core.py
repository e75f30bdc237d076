class Square:
    def area(self):
        print("Square.area")


def build(kind):
    print("build")
    return kind()


class Holder:
    def __init__(self):
        self.item = None

    def fill(self, item):
        print("Holder.fill")
        self.item = item
