mod util;

use util::{shout, whisper};

fn main() {
    let a = shout("hi");
    let b = whisper("HI");
    println!("{a} {b}");
}
