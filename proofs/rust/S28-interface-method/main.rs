trait Shape {
    fn area(&self) -> u32;
}

struct Square(u32);

impl Shape for Square {
    fn area(&self) -> u32 {
        self.0 * self.0
    }
}

fn total(shapes: &[Box<dyn Shape>]) -> u32 {
    let mut sum = 0;
    for s in shapes {
        sum += s.area();
    }
    sum
}

fn one(s: &dyn Shape) -> u32 {
    s.area()
}

fn main() {
    let v: Vec<Box<dyn Shape>> = vec![Box::new(Square(2)), Box::new(Square(3))];
    let t = total(&v);
    let o = one(&Square(4));
    println!("{t} {o}");
}
