#include <cstdio>

class Units {
 public:
    static int to_cm(int inches);
    static const char* name() { return "units"; }
};

int Units::to_cm(int inches) {
    return inches * 254 / 100;
}

int main() {
    std::printf("%d %s\n", Units::to_cm(2), Units::name());
    return 0;
}
