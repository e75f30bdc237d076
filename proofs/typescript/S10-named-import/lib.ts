export function greet(name: string): string {
  return "hello " + name;
}

export function twice(n: number): number {
  return n * 2;
}
