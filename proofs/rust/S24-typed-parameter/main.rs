struct Printer;
struct Speaker;

impl Printer {
    fn emit(&self, s: &str) -> String {
        format!("print:{s}")
    }
}

impl Speaker {
    fn emit(&self, s: &str) -> String {
        format!("say:{s}")
    }
}

fn send(p: &Printer, s: &str) -> String {
    p.emit(s)
}

fn main() {
    let out = send(&Printer, "x");
    let other = Speaker.emit("y");
    println!("{out} {other}");
}
