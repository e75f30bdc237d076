#include <cstdio>
#include "features.hpp"
#include "features.hpp"

namespace app {
#if __cplusplus >= 201703L
inline int dialect() { return 17; }
#else
inline int dialect() { return 11; }
#endif

#if defined(NDEBUG)
inline int checks() { return 0; }
#else
inline int checks() { return 1; }
#endif

#if FEATURE
inline int feature() { return 10; }
#elif __has_include(<vector>) && !defined(_MSC_VER)
inline int feature() { return 20; }
#else
inline int feature() { return 30; }
#endif
}  // namespace app

int main() {
    Clock c;
    std::printf("%d %d %d %d\n", app::dialect(), app::checks(), app::feature(), c.ticks());
    return 0;
}
