export function area(r: number): number {
  return 3 * r * r;
}

export function perimeter(r: number): number {
  return 6 * r;
}
