#include <cstdio>
#include "shape.hpp"

static int measure(const Shape& s) {
    return s.area();
}

int main() {
    Square sq(3);
    const Shape* p = &sq;
    std::printf("%d %d %d\n", measure(sq), p->area(), sq.area());
    return 0;
}
