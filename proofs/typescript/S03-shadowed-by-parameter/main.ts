function helper(): string {
  return "module helper";
}

function run(helper: () => string): string {
  return helper();
}

function double(): string {
  return "double";
}

function triple(): string {
  return "triple";
}

console.log(run(double));
console.log(run(triple));
console.log(helper());
