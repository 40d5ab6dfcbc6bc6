/* status.h - erlang:trace_info/2 and a tracer that exits (STATUS-*). */
#ifndef TCS_STATUS_H
#define TCS_STATUS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the probe and ctl line of an `info` step (erlang:trace_info/2). */
bool status_info(Model *m, const Step *st);
/* Guarantees: the effect of `tracer exit R`: the legacy session's state process is dead. */
bool status_tracer_exit(Model *m, const Step *st);

#endif
