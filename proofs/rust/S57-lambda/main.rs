fn square(x: i32) -> i32 {
    x * x
}

fn main() {
    let sq = |x: i32| x * x;
    let add = |a: i32, b: i32| a + b;
    let a = sq(3);
    let b = add(1, 2);
    let c = square(4);
    println!("{a} {b} {c}");
}
