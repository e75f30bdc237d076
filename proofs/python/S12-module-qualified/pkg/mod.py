def h():
    print("pkg.mod.h")
