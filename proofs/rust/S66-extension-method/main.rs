trait Shout {
    fn shout(&self) -> String;
}

impl Shout for String {
    fn shout(&self) -> String {
        self.to_uppercase()
    }
}

struct Crowd;

impl Crowd {
    fn shout(&self) -> String {
        String::from("HEY")
    }
}

fn main() {
    let s = String::from("hi");
    let a = s.shout();
    let n = s.len();
    let b = Crowd.shout();
    println!("{a} {n} {b}");
}
