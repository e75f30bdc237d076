def helper():
    print("module helper")


def run(helper):
    helper()


def first():
    print("first")


def second():
    print("second")


run(first)
run(second)
