fn helper(x: i32) -> i32 {
    x + 100
}

fn apply(helper: fn(i32) -> i32, x: i32) -> i32 {
    helper(x)
}

fn double(x: i32) -> i32 {
    x * 2
}

fn triple(x: i32) -> i32 {
    x * 3
}

fn main() {
    let a = apply(double, 5);
    let b = apply(triple, 5);
    let c = helper(1);
    println!("{a} {b} {c}");
}
