mod geometry;

fn main() {
    let a = geometry::area(2, 3);
    let b = crate::geometry::shapes::perimeter(2, 3);
    println!("{a} {b}");
}
