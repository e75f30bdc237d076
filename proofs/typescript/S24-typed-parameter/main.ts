class Printer {
  emit(text: string): void {
    console.log("Printer.emit " + text);
  }
}

class Logger {
  emit(text: string): void {
    console.log("Logger.emit " + text);
  }
}

function send(p: Printer | null, text: string): void {
  p!.emit(text);
}

send(new Printer(), "hello");
new Logger();
