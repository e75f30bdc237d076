#include <cstdio>

class Repo {
 public:
    void save() const { std::printf("saved\n"); }
};

class Service {
 public:
    Repo& repo() { return repo_; }
    Repo repo_;
};

static Service& service() {
    static Service s;
    return s;
}

int main() {
    Service svc;
    svc.repo().save();
    service().repo().save();
    return 0;
}
