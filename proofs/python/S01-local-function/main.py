def greet(name):
    print("greet", name)


def main():
    greet("world")
    greet("again")


main()
