def f():
    print("lib.f")


def _hidden():
    print("lib._hidden")
