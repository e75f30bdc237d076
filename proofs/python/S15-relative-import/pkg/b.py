from . import c
from .a import f


def g():
    f("b")
    c.h()
