const util = require("./util");
const { shout } = require("./util");

console.log(util.slugify("Hello World"));
console.log(shout("hey"));
