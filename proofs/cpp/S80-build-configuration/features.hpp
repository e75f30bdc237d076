#pragma once

#define FEATURE 0

struct Clock {
#ifdef _WIN32
    int ticks() const { return 1; }
#else
    int ticks() const { return 2; }
#endif
};
