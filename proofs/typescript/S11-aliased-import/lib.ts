export function f(): string {
  return "lib.f";
}

export function g(): string {
  return "lib.g";
}
