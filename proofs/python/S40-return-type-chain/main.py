class Repo:
    def save(self, item):
        print("Repo.save", item)


class Service:
    def __init__(self):
        self._repo = Repo()

    def repo(self) -> Repo:
        return self._repo


def get_service() -> Service:
    return Service()


def run(svc: Service):
    svc.repo().save("order")


run(Service())
get_service().repo().save("invoice")
