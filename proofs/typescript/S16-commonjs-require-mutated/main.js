const config = require("./config");

function replaced() {
  return "replaced";
}

console.log(config.build());
config.build = replaced;
console.log(config.build());
