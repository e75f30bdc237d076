#include <stdio.h>

int scale(int x);

int main(void) {
    printf("%d\n", scale(7));
    return 0;
}
