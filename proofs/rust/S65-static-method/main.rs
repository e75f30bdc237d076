struct Units;

impl Units {
    fn to_cm(m: u32) -> u32 {
        m * 100
    }

    fn name() -> &'static str {
        "units"
    }
}

fn main() {
    let a = Units::to_cm(2);
    let b = Units::name();
    println!("{a} {b}");
}
