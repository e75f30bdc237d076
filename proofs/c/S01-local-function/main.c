#include <stdio.h>

static int square(int x) {
    return x * x;
}

int twice_square(int x) {
    return 2 * square(x);
}

int main(void) {
    printf("%d %d\n", square(3), twice_square(2));
    return 0;
}
