/* fninfo.h - erlang:trace_info({M,F,A}, Item) from the harness: a function's patterns and
 * counters in the legacy session (CALL-COUNTERS-INFO). */
#ifndef TCS_FNINFO_H
#define TCS_FNINFO_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of an `info {M,F,A} ITEM` step; true. */
bool fninfo_step(Model *m, const Step *st);

#endif
