class Lamp {
  on() {
    return "lamp on";
  }
}

class Fan {
  on() {
    return "fan on";
  }
}

function main() {
  const a = new Lamp();
  console.log(a.on());
  const b = new Fan();
  console.log(b.on());
}

main();
