#include <cstdio>

class Animal {
 public:
    void speak() const { std::printf("...\n"); }
};

class Dog : public Animal {
 public:
    void fetch() const { std::printf("fetch\n"); }
};

int main() {
    Dog d;
    d.speak();
    d.fetch();
    return 0;
}
