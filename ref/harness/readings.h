/* readings.h - named call_time and call_memory readings and the relations a case states between
 * two of them (CONFORMANCE.md section 2, "Call counters": CALL-COUNTERS-RELATION). */
#ifndef TCS_READINGS_H
#define TCS_READINGS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: when st names its reading (`... as NAME`), what a relation can tell of it is kept:
 * whose counter (session s, the pattern pat of function fn, NULL when the call answered no list)
 * it read, its epoch and the calls it counted; always true. */
bool readings_take(Model *m, const Step *st, int s, int fn, const Pattern *pat);
/* Guarantees: the control line of a `relation A OP B` step, "tcs_readings:relation(A,'OP',B) -> true|false" (the harness's
 * call that compares them),
 * when the two readings decide it: the same counter in one epoch, whose time and words only
 * grow, and grow for sure by a call that allocates; false with the model's error set when they
 * do not (a reading that was no list, two counters, a restart between, a growth the model
 * cannot tell). */
bool readings_relation(Model *m, const Step *st);

#endif
