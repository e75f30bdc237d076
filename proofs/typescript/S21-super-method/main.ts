abstract class Animal {
  constructor(protected name: string) {}

  abstract sound(): string;

  describe(): string {
    return this.name + " says " + this.sound();
  }
}

class Dog extends Animal {
  constructor() {
    super("dog");
  }

  sound(): string {
    return "woof";
  }

  describe(): string {
    return "[" + super.describe() + "]";
  }
}

console.log(new Dog().describe());
