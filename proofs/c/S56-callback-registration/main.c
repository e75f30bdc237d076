#include <stdio.h>

typedef void (*handler)(int);

static handler registered[4];
static int count;

static void on_start(int code) {
    printf("start %d\n", code);
}

static void on_stop(int code) {
    printf("stop %d\n", code);
}

static void register_handler(handler h) {
    registered[count++] = h;
}

static const handler defaults[] = {on_stop};

int main(void) {
    register_handler(on_start);
    register_handler(&on_stop);
    for (int i = 0; i < count; i++) {
        registered[i](i);
    }
    defaults[0](9);
    return 0;
}
