const sq = (x: number): number => x * x;
const add = function (a: number, b: number): number {
  return a + b;
};

console.log(sq(3));
console.log(add(1, 2));
