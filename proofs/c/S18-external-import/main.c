#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *word = argc > 5 ? argv[1] : "hello";
    size_t n = strlen(word);
    int v = atoi("42");
    printf("%zu %d %d\n", n, v, abs(-3));
    return 0;
}
