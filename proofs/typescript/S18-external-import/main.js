const path = require("path");
const { basename } = require("node:path");

console.log(path.join("a", "b"));
console.log(basename("/x/y.txt"));
console.log(JSON.stringify({ k: 1 }));
