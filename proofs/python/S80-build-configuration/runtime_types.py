class Greeter:
    def hello(self):
        print("runtime_types.Greeter.hello")
