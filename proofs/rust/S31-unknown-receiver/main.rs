trait Speak {
    fn speak(&self) -> String;
}

struct Cat;
struct Cow;

impl Speak for Cat {
    fn speak(&self) -> String {
        String::from("meow")
    }
}

impl Speak for Cow {
    fn speak(&self) -> String {
        String::from("moo")
    }
}

fn talk<T: Speak>(thing: &T) -> String {
    thing.speak()
}

fn main() {
    let a = talk(&Cat);
    let b = talk(&Cow);
    println!("{a} {b}");
}
