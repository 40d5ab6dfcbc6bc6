/* calls.h - function calls: call, return_to, return_from, exception_from, meta. */
#ifndef TCS_CALLS_H
#define TCS_CALLS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of process p evaluating the `call` step (a global call), including
 * the ctl line of an exception the call raises; false with err set if unsupported. */
bool calls_step(Model *m, int p, const Step *st);
/* Guarantees: as calls_step, with the call made by the function caller ({M,F,A}, inside a
 * try): what a {caller} match spec of the called function, or of one it tail-calls, sees. */
bool calls_step_from(Model *m, int p, const Step *st, const Term *caller);

#endif
