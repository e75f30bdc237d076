trait Animal {
    fn name(&self) -> String;

    fn speak(&self) -> String {
        let n = self.name();
        format!("{n} makes a sound")
    }
}

struct Dog;

impl Animal for Dog {
    fn name(&self) -> String {
        String::from("dog")
    }
}

fn main() {
    let d = Dog;
    let s = d.speak();
    println!("{s}");
}
