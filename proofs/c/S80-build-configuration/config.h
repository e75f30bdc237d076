#ifndef CONFIG_H
#define CONFIG_H

#define FEATURE 0

#endif
