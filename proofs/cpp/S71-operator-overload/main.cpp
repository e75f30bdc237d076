#include <cstdio>

struct Vec {
    int x, y;
    Vec operator+(const Vec& o) const { return Vec{x + o.x, y + o.y}; }
    bool operator==(const Vec& o) const { return x == o.x && y == o.y; }
};

int main() {
    Vec a{1, 2};
    Vec b{3, 4};
    Vec c = a + b;
    int n = 2 + 3;
    bool same = c == b;
    std::printf("%d %d %d %d\n", c.x, c.y, n, same);
    return 0;
}
