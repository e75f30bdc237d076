#include <stdio.h>
#include "other.h"

static int helper(int v) {
    return v + 100;
}

int main(void) {
    printf("%d %d\n", helper(1), other_value(1));
    return 0;
}
