def inner(x):
    print("module inner", x)


def outer():
    def inner(x):
        print("nested inner", x)

    inner(1)
    return "outer done"


print(outer())
