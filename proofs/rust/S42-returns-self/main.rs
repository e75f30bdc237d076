struct Query {
    parts: Vec<String>,
}

impl Query {
    fn new() -> Self {
        Query { parts: Vec::new() }
    }

    fn filter(mut self, f: &str) -> Self {
        self.parts.push(f.to_string());
        self
    }

    fn limit(mut self, n: u32) -> Self {
        self.parts.push(n.to_string());
        self
    }

    fn show(&self) -> String {
        self.parts.join(",")
    }
}

fn main() {
    let q = Query::new().filter("a").limit(3);
    let s = q.show();
    println!("{s}");
}
