import { f as g } from "./lib";
import * as lib from "./lib";

console.log(g());
console.log(lib.f());
console.log(lib.g());
