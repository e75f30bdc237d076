#include <stdio.h>

#define TWICE(x) add((x), (x))
#define CHECK(expr) ((expr) ? 1 : 0)

static int add(int a, int b) {
    return a + b;
}

static int positive(int v) {
    return v > 0;
}

int main(void) {
    int r = TWICE(4);
    int ok = CHECK(positive(r));
    printf("%d %d\n", r, ok);
    return 0;
}
