def original():
    print("original")


def other():
    print("other")


h = original
h()
a = b = other
a()
b()
