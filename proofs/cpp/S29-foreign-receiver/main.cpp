#include <cstdio>
#include <string>
#include <vector>

class Bag {
 public:
    void add(int v) { n_ += v; }
    int n_ = 0;
};

int main() {
    std::vector<int> items;
    items.push_back(4);
    std::string s = "abc";
    Bag b;
    b.add(1);
    std::printf("%zu %zu %d\n", items.size(), s.size(), b.n_);
    return 0;
}
