mod outer {
    pub fn base() -> i32 {
        7
    }

    pub mod inner {
        use super::base;

        pub fn twice() -> i32 {
            base() * 2
        }

        pub fn thrice() -> i32 {
            super::base() * 3
        }
    }
}

fn main() {
    let a = outer::inner::twice();
    let b = outer::inner::thrice();
    println!("{a} {b}");
}
