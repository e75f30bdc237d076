module.exports = require("./impl");
