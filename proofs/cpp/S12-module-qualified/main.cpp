#include <cstdio>
#include "util.hpp"

namespace util {
int sub(int a, int b, int c) { return a - b - c; }
}  // namespace util

int main() {
    std::printf("%d %d\n", util::add(2, 3), ::util::sub(9, 4));
    return 0;
}
