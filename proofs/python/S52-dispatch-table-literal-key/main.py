def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


ops = {"add": add, "sub": sub}
print(ops["add"](2, 3))
ops["sub"] = mul
print(ops["sub"](2, 3))
table = [add, sub]
print(table[1](2, 3))
