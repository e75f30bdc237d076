#include <cstdio>

class Printer {
 public:
    void emit(int v) const { std::printf("printer %d\n", v); }
};

class Logger {
 public:
    void emit(int v) const { std::printf("logger %d\n", v); }
};

static void send(const Printer& p, Logger* l) {
    p.emit(1);
    l->emit(2);
}

int main() {
    Printer p;
    Logger l;
    send(p, &l);
    return 0;
}
