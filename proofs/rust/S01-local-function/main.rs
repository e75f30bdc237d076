fn greet(name: &str) -> String {
    let mut s = String::from("hello ");
    s.push_str(name);
    s
}

fn main() {
    let a = greet("ada");
    let b = greet("bob");
    println!("{a}");
    println!("{b}");
}
