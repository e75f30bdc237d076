class Base:
    def __init__(self, name):
        self.name = name

    def describe(self):
        print("Base.describe", self.name)


class Child(Base):
    def __init__(self, name):
        super().__init__(name)

    def describe(self):
        super().describe()
        print("Child.describe", self.name)


c = Child("x")
c.describe()
