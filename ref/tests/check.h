/* check.h - minimal test assertions: count failures, report them, exit non-zero. */
#ifndef TCS_CHECK_H
#define TCS_CHECK_H
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
            (*failures)++;                                                             \
        }                                                                              \
    } while (0)

#define CHECK_STR(got, want)                                                           \
    do {                                                                               \
        const char *g_ = (got), *w_ = (want);                                          \
        if (strcmp(g_, w_) != 0) {                                                     \
            fprintf(stderr, "%s:%d: got  %s\n%*swant %s\n", __FILE__, __LINE__, g_,    \
                    (int)strlen(__FILE__) + 8, "", w_);                                \
            (*failures)++;                                                             \
        }                                                                              \
    } while (0)

#endif
