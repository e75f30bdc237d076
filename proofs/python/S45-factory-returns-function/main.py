def hello():
    print("hello")


def make():
    return hello


def make_adder(n):
    def add(x):
        return x + n

    return add


f = make()
f()
add5 = make_adder(5)
print(add5(1))
