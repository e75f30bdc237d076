function User(name) {
  this.name = name;
}

User.count = function () {
  return 42;
};

module.exports = User;
