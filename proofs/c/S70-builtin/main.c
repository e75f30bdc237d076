#include <stdio.h>

int main(void) {
    unsigned bits = (unsigned)__builtin_popcount(255u);
    long likely = __builtin_expect(bits == 8, 1);
    printf("%u %ld\n", bits, likely);
    return 0;
}
