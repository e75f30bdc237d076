#include <stdio.h>
#include "config.h"
#include "config.h"

#ifdef _WIN32
static int platform(void) { return GetVersion(); }
#else
static int platform(void) { return 2; }
#endif

#if defined(NDEBUG)
static int checks(void) { return 0; }
#else
static int checks(void) { return 1; }
#endif

#if FEATURE
static int feature(void) { return 10; }
#else
static int feature(void) { return 20; }
#endif

#if __STDC_VERSION__ >= 201112L && __x86_64__
static int standard(void) { return 11; }
#elif __STDC_VERSION__ >= 199901L
static int standard(void) { return 99; }
#endif

int stdio_says(void);

int main(void) {
    printf("%d %d %d %d %d\n", platform(), checks(), feature(), standard(), stdio_says());
    return 0;
}
