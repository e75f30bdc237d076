def f():
    print("lib.f")


def g():
    print("lib.g")
