/*
 * Defect: the callbacks do slow work on the scheduler that calls them:
 * trace* sleeps 50 ms (as a tracer writing each event to a slow file would)
 * and enabled* spins 0.1 ms.  Every answer is right; the scheduler that
 * produced the event is held all that time (000: these functions are to "do
 * as little work as possible").
 * Flagged by: latency, cost, stress
 * stress: a worker calling it holds its scheduler for its whole time slice,
 * many events long, so the node cannot come to rest within the stress limit.
 */
#define _POSIX_C_SOURCE 199309L   /* nanosleep, clock_gettime */
#include <erl_nif.h>
#include <time.h>

#define TCS_MODULE tcs_defect_stall
#define TCS_TRACE_HOOK(env, argv) nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL)
#define TCS_ENABLED_HOOK(env, argv, answer) (spin_ns(100 * 1000), (answer))
static void spin_ns(long ns);
#include "../good/tcs_tracer_base.h"

/* Guarantees: returns after ns nanoseconds of busy waiting on the monotonic clock. */
static void spin_ns(long ns)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do
        clock_gettime(CLOCK_MONOTONIC, &now);
    while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < ns);
}
