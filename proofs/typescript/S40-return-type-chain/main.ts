class Repo {
  save(x: string): string {
    return "saved " + x;
  }
}

class Service {
  repo(): Repo {
    return new Repo();
  }
}

function getService(): Service {
  return new Service();
}

const svc = getService();
console.log(svc.repo().save("a"));
console.log(getService().repo().save("b"));
