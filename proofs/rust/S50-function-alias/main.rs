fn original(x: i32) -> i32 {
    x + 1
}

fn other(x: i32) -> i32 {
    x * 10
}

fn main() {
    let h = original;
    let a = h(1);
    let g: fn(i32) -> i32 = other;
    let b = g(2);
    println!("{a} {b}");
}
