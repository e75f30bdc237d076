#include <stdio.h>

struct op {
    const char *name;
    int (*fn)(int, int);
};

static int op_add(int a, int b) {
    return a + b;
}

static int op_sub(int a, int b) {
    return a - b;
}

static const struct op ops[] = {
    {"add", op_add},
    {"sub", op_sub},
};

static int apply(int which, int a, int b) {
    return ops[which].fn(a, b);
}

int main(void) {
    printf("%d %d\n", apply(0, 5, 3), apply(1, 5, 3));
    return 0;
}
