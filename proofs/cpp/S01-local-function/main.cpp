#include <cstdio>

namespace app {

int square(int x) {
    return x * x;
}

int twice_square(int x) {
    return 2 * square(x);
}

}  // namespace app

int main() {
    std::printf("%d\n", app::twice_square(3));
    return 0;
}
