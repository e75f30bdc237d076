mod lib;

use lib::f as g;

fn main() {
    let a = g(1);
    let b = lib::g(1);
    println!("{a} {b}");
}
