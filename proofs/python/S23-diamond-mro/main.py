class A:
    def who(self):
        print("A.who")


class B(A):
    pass


class C(A):
    def who(self):
        print("C.who")


class D(B, C):
    pass


d = D()
d.who()
