/* counters.h - the call_count, call_time and call_memory counters of function patterns:
 * what a pattern step does to them, what a call adds, what info reports (CALL-COUNTERS-*). */
#ifndef TCS_COUNTERS_H
#define TCS_COUNTERS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the counter a pattern option names (call_count, call_time, call_memory), or
 * COUNTERS for any other option. */
CounterKind counters_kind(const char *option);
/* Guarantees: c as a pattern step with match spec ms leaves it: true or [] starts it from zero
 * (a new epoch),
 * false stops it, pause pauses a running one, restart zeroes a running or paused one and runs it
 * (CALL-COUNTERS-START, -STOP, -PAUSE, -RESTART); pause or restart of a stopped one starts it
 * from zero when breakpoint says the session has a breakpoint on the function (a local or meta
 * pattern, a counter running or paused), else leaves it stopped, and only then returns true
 * (CALL-COUNTERS-BREAKPOINT-STARTS). */
bool counters_set(Model *m, Counter *c, const Term *ms, bool breakpoint);
/* Guarantees: the counters of pat (session s) have counted one call by process p: call_count
 * in any process, call_time and call_memory per process, only a process the session traces for
 * call (CALL-COUNTERS-ANY-PROCESS, CALL-COUNTERS-TRACED-ONLY). */
void counters_call(Model *m, int s, int p, Pattern *pat);
/* Guarantees: the value the info item of counter k reports: false when off; for a function
 * the count, or [{Pid, Count, _Seconds, _Microseconds}] / [{Pid, Count, _Words}] in the order
 * of the printed pids; for on_load true (CALL-COUNTERS-INFO). */
Term *counters_value(Model *m, const Counter *c, CounterKind k, bool on_load);

/* Guarantees: when item (call_count, call_time, call_memory or all) of pat's trace information
 * holds a count a busy loop made (Counter.uncounted: CALL-BUSY-LOOP), the refusal's "what ... is"
 * (model_unsupported); else NULL. */
const char *counters_uncounted(const Pattern *pat, const char *item);

#endif
