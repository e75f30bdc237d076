def f():
    print("lib.f")
