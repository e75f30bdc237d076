fn main() {
    let a = Some(3);
    let b: Result<i32, String> = Ok(4);
    let v: Vec<i32> = Vec::new();
    let s = String::from("x");
    let bx = Box::new(5);
    drop(v);
    let n = a.unwrap() + b.unwrap() + *bx;
    println!("{n} {s}");
}
