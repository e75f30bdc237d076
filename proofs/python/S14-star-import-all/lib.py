__all__ = ["f"]


def f():
    print("lib.f")


def g():
    print("lib.g")
