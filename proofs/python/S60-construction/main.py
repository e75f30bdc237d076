class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        print("Point.__init__", x, y)


class Marker:
    label = "marker"


p = Point(1, 2)
m = Marker()
print(m.label, p.x + p.y)
