#include <stdio.h>

static int helper(int x) {
    return x + 1;
}

static int triple(int x) {
    return x * 3;
}

static int pick(int which, int x) {
    int (*helper_fn)(int) = which ? triple : helper;
    int (*helper)(int) = helper_fn;
    return helper(x);
}

int main(void) {
    printf("%d %d\n", pick(1, 2), pick(0, 2));
    return 0;
}
