class Counter:
    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1
        self.report()

    def report(self):
        print("Counter.report", self.n)

    @classmethod
    def create(cls) -> "Counter":
        cls.describe()
        return Counter()

    @classmethod
    def describe(cls):
        print("Counter.describe")


c = Counter.create()
c.bump()
