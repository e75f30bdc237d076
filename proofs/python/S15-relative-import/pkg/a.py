def f(who):
    print("pkg.a.f from", who)
