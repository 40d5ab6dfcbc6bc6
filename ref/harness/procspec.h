/* procspec.h - erlang:trace/3 from the harness: the processes it names, the flags it sets,
 * what it returns. */
#ifndef TCS_PROCSPEC_H
#define TCS_PROCSPEC_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl line of a `trace` step (erlang:trace/3, legacy session). */
bool procspec_step(Model *m, const Step *st);

#endif
