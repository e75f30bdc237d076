from typing import Self


class Query:
    def __init__(self):
        self.parts = []

    def where(self, cond) -> Self:
        self.parts.append(cond)
        return self

    def limit(self, n) -> "Query":
        self.parts.append(n)
        return self

    def show(self):
        print("Query.show", self.parts)


q = Query()
q.where("a > 1").limit(5).show()
