#include <cstdio>
#include "util.hpp"

using util::add;

int main() {
    std::printf("%d\n", add(2, 3));
    return 0;
}
