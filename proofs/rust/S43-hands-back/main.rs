#[derive(Clone)]
struct Config {
    name: String,
}

impl Config {
    fn name(&self) -> String {
        self.name.clone()
    }
}

fn find(key: &str) -> Option<Config> {
    if key.is_empty() {
        None
    } else {
        Some(Config { name: key.to_string() })
    }
}

fn load(key: &str) -> Result<Config, String> {
    find(key).ok_or(String::from("missing"))
}

fn first(key: &str) -> Option<String> {
    let c = find(key)?;
    Some(c.name())
}

fn main() {
    let a = find("a").unwrap().name();
    let b = load("b").expect("present").name();
    let c = find("c").unwrap().clone().name();
    let d = first("d").unwrap();
    println!("{a} {b} {c} {d}");
}
