/* busyreload.h - the tracer module reloaded while its tracee is busy (TRACER-RELOAD-BUSY). */
#ifndef TCS_BUSYRELOAD_H
#define TCS_BUSYRELOAD_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of `tracer reload while A calls M:F(Args)` (ST_TRACER_RELOAD_BUSY): A's
 * first call, and a window for its other traced calls, around the reload's and the delete's ctl lines, with an either-or
 * of erlang:trace_info(A, tracer) between them (TRACER-RELOAD-RACE); the tracer module deleted
 * after it; false (model_unsupported) where the model cannot state the round. */
bool busyreload_step(Model *m, const Step *st);

#endif
