class Counter:
    def __init__(self):
        self.n = 0

    def inc(self):
        self.n += 1
        print("Counter.inc", self.n)


c = Counter()
b = c.inc
b()
b()
