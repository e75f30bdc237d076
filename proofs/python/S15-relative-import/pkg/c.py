def h():
    print("pkg.c.h")
