#include <cstdio>

class Lamp {
 public:
    void on() { std::printf("lamp\n"); }
};

class Fan {
 public:
    void on() { std::printf("fan\n"); }
};

int main() {
    auto a = Lamp();
    a.on();
    Fan b;
    b.on();
    auto* c = new Lamp;
    c->on();
    delete c;
    return 0;
}
