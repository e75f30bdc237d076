class User {
  greet(): string {
    return "hi";
  }
}

class Store {
  async find(): Promise<User> {
    return new User();
  }
}

async function main(): Promise<void> {
  const store = new Store();
  const u = await store.find();
  console.log(u.greet());
  console.log((await store.find()).greet());
}

main();
