#include <cstdio>
#include "util.hpp"

using namespace util;

int main() {
    std::printf("%d %d\n", add(2, 3), sub(7, 1));
    return 0;
}
