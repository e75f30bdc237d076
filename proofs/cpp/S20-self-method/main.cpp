#include <cstdio>

class Counter {
 public:
    void bump() {
        this->add(2);
        report();
    }
    void add(int n) { total_ += n; }
    void report() const { std::printf("%d\n", total_); }

 private:
    int total_ = 0;
};

int main() {
    Counter c;
    c.bump();
    return 0;
}
