class Greeter:
    def hello(self):
        print("checker_types.Greeter.hello")
