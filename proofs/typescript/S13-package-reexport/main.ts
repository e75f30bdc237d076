import { surface, perimeter } from "./shapes";
import * as shapes from "./shapes";

console.log(surface(2));
console.log(perimeter(2));
console.log(shapes.area(1));
