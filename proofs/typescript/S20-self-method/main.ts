class Log {
  write(s: string): void {
    console.log("log " + s);
  }
}

class Summary {
  #log = new Log();

  title(): string {
    return "report";
  }

  show(): void {
    this.#log.write(this.title());
  }
}

new Summary().show();
