from ..a import f


def k():
    f("sub.d")
