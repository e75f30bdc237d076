struct Report {
    title: String,
}

impl Report {
    fn new(title: &str) -> Self {
        Self::build(title)
    }

    fn build(title: &str) -> Report {
        Report { title: title.to_string() }
    }

    fn header(&self) -> String {
        format!("== {} ==", self.title)
    }

    fn print(&self) {
        let h = self.header();
        println!("{h}");
    }
}

fn main() {
    let r = Report::new("weekly");
    r.print();
}
