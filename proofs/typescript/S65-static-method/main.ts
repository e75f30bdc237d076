class Units {
  static toCm(inches: number): number {
    return inches * 2.54;
  }
}

const Regex = {
  build(p: string): string {
    return "/" + p + "/";
  },
};

console.log(Units.toCm(2));
console.log(Regex.build("a+"));
