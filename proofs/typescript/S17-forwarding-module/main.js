const User = require("./index");

const u = new User("ada");
console.log(u.name);
console.log(User.count());
