def double(x):
    return x * 2


def triple(x):
    return x * 3


def apply(fn, x):
    return fn(x)


print(apply(double, 3))
print(apply(double, 5))
print(triple(1))
