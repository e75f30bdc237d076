#include <stdio.h>

static int helper(int x) {
    return x + 1;
}

static int double_it(int x) {
    return x * 2;
}

static int run(int (*helper)(int), int x) {
    return helper(x);
}

int main(void) {
    printf("%d %d\n", run(double_it, 5), run(helper, 5));
    return 0;
}
