struct Repo;
struct Service {
    repo: Repo,
}

impl Repo {
    fn save(&self, n: u32) -> u32 {
        n + 1
    }
}

impl Service {
    fn repo(&self) -> &Repo {
        &self.repo
    }
}

fn service() -> Service {
    Service { repo: Repo }
}

fn main() {
    let svc = service();
    let a = svc.repo().save(1);
    let b = service().repo().save(2);
    println!("{a} {b}");
}
