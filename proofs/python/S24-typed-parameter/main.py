class Printer:
    def emit(self, text):
        print("Printer.emit", text)


class Logger:
    def emit(self, text):
        print("Logger.emit", text)


def send(p: Printer, text):
    p.emit(text)


send(Printer(), "hello")
