function slugify(text) {
  return text.toLowerCase();
}

exports.slugify = slugify;
exports.shout = function (text) {
  return text.toUpperCase() + "!";
};
