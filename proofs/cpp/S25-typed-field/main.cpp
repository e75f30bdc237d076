#include <cstdio>

class Engine {
 public:
    void start() { std::printf("engine\n"); }
};

class Wheel {
 public:
    void start() { std::printf("wheel\n"); }
};

class Car {
 public:
    void go() {
        engine_.start();
        this->wheel_->start();
    }
    Engine engine_;
    Wheel* wheel_ = nullptr;
};

int main() {
    Car car;
    Wheel w;
    car.wheel_ = &w;
    car.go();
    return 0;
}
