#include <cstdio>
#include "status.hpp"

int main() {
    Mutex mu;
    MutexLock l(&mu);
    Status s;
    Status* p = new Status(7);
    int c = Status(3).code();
    std::printf("%d %d %d\n", s.code(), p->code(), c);
    delete p;
    return 0;
}
