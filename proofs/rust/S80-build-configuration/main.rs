mod legacy;
mod util;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

use util::*;
#[cfg(feature = "off")]
use legacy::helper;
#[cfg(unix)]
use unix as sys;
#[cfg(windows)]
use windows as sys;

#[cfg(not(unix))]
fn platform() -> &'static str {
    "other"
}
#[cfg(unix)]
fn platform() -> &'static str {
    "unix"
}

#[cfg(feature = "simd")]
fn speed() -> u32 {
    2
}
#[cfg(not(feature = "simd"))]
fn speed() -> u32 {
    1
}

#[cfg_attr(not(feature = "fast"), cfg(any()))]
fn tuned() -> u32 {
    3
}
#[cfg_attr(feature = "fast", cfg(any()))]
fn tuned() -> u32 {
    0
}

struct Counter {
    n: u32,
}

#[cfg(feature = "off")]
impl Counter {
    fn count(&self) -> u32 {
        self.n * 100
    }
}
#[cfg(not(feature = "off"))]
impl Counter {
    fn count(&self) -> u32 {
        self.n
    }
}

fn fallback() -> &'static str {
    "fallback"
}

fn main() {
    let c = Counter { n: 7 };
    let how = if cfg!(feature = "off") { shared() } else { fallback() };
    println!("{} {} {} {}", helper(), platform(), speed(), tuned());
    println!("{} {} {}", c.count(), sys::name(), how);
}
