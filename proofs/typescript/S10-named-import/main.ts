import { greet, twice } from "./lib";

console.log(greet("ts"));
console.log(twice(21));
