#ifndef UTIL_H
#define UTIL_H
int add(int a, int b);
int mul(int a, int b);
#endif
