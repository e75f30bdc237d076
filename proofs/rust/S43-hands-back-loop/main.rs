struct Item {
    price: u32,
}

impl Item {
    fn price(&self) -> u32 {
        self.price
    }
}

fn stock() -> Vec<Item> {
    vec![Item { price: 3 }, Item { price: 4 }]
}

fn main() {
    let items = stock();
    let mut total = 0;
    for it in items.iter() {
        total += it.price();
    }
    for it in &items {
        total += it.price();
    }
    let big = items.iter().filter(|it| it.price() > 3).count();
    println!("{total} {big}");
}
