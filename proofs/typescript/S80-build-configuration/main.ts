import { greet } from "s80/greet";
import { tool } from "s80/tools";

console.log(greet("node"));
console.log(tool(2));
