pub fn f(x: i32) -> i32 {
    x + 10
}

pub fn g(x: i32) -> i32 {
    x + 20
}
