#include <stdio.h>
#include "util.h"

int main(void) {
    int r = add(1, 2);
    r = mul(r, 4);
    printf("%d\n", r);
    return 0;
}
