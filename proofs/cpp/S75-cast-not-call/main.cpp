#include <cstdio>

static int square(int x) {
    return x * x;
}

int main() {
    long wide = static_cast<long>(square(4));
    unsigned long size = sizeof(square(2));
    double d = (double)square(3);
    std::printf("%ld %lu %.1f\n", wide, size, d);
    return 0;
}
