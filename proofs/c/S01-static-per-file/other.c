#include "other.h"

static int helper(int v) {
    return v * 10;
}

int other_value(int v) {
    return helper(v);
}
