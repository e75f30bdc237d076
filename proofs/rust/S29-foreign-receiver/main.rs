struct Bag {
    items: Vec<String>,
}

impl Bag {
    fn push(&mut self, s: &str) {
        self.items.push(s.to_string());
    }
}

fn main() {
    let mut bag = Bag { items: Vec::new() };
    bag.push("a");
    let mut names: Vec<String> = Vec::new();
    names.push(String::from("b"));
    let n = names.len() + bag.items.len();
    println!("{n}");
}
