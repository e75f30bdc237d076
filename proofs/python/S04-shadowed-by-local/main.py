class Tools:
    def ping(self):
        print("Tools.ping")


def helper():
    print("module helper")


def main(name):
    helper = getattr(Tools(), name)
    helper()


main("ping")
