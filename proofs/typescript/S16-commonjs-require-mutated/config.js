const config = {
  build() {
    return "config.build";
  },
};

module.exports = config;
