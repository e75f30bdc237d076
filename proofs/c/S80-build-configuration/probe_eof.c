#include <stdio.h>

#ifdef EOF
int stdio_says(void) { return 1; }
#endif
