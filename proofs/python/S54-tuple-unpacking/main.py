def f():
    print("f")


def g():
    print("g")


def h():
    print("h")


a, (b, c) = f, (g, h)
a()
b()
c()
first, *rest = h, g, f
first()
*init, last = g, h, f
last()
