#[derive(Clone, Debug, PartialEq, Default)]
struct Point {
    x: i32,
    y: i32,
}

impl Point {
    fn sum(&self) -> i32 {
        self.x + self.y
    }
}

fn main() {
    let p = Point { x: 1, y: 2 };
    let q = p.clone();
    let z = Point::default();
    let same = p.eq(&q);
    let s = q.sum() + z.sum();
    println!("{same} {s}");
}
