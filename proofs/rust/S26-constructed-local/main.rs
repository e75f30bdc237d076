struct Lamp {
    room: String,
}

struct Fan;

impl Lamp {
    fn new(room: &str) -> Lamp {
        Lamp { room: room.to_string() }
    }

    fn switch_on(&self) -> String {
        format!("lamp on in {}", self.room)
    }
}

impl Fan {
    fn switch_on(&self) -> String {
        String::from("fan on")
    }
}

fn main() {
    let a = Lamp::new("hall");
    let s = a.switch_on();
    let b = Fan;
    let t = b.switch_on();
    println!("{s}");
    println!("{t}");
}
