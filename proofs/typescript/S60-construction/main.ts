class Point {
  constructor(public x: number, public y: number) {}
}

class Marker {}

const p = new Point(1, 2);
const m = new Marker();
console.log(p.x + p.y, m instanceof Marker);
