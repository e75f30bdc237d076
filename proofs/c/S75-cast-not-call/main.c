#include <stdio.h>

static int square(int x) {
    return x * x;
}

int main(void) {
    long wide = (long)square(4);
    size_t size = sizeof(square(2));
    printf("%ld %zu\n", wide, size);
    return 0;
}
