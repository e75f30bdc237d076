struct Engine {
    power: u32,
}

impl Engine {
    fn start(&self) -> u32 {
        self.power
    }
}

struct Car {
    engine: Engine,
}

impl Car {
    fn drive(&self) -> u32 {
        self.engine.start() + 1
    }
}

fn main() {
    let car = Car { engine: Engine { power: 90 } };
    let v = car.drive();
    let w = car.engine.start();
    println!("{v} {w}");
}
