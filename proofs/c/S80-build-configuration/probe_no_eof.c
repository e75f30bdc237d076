#include <stdio.h>

#ifndef EOF
int stdio_says(void) { return 0; }
#endif
