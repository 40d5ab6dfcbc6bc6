/* status.h - erlang:trace_info/2 and a tracer that exits (STATUS-*). */
#ifndef TCS_STATUS_H
#define TCS_STATUS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the probe and ctl line of an `info` step (erlang:trace_info/2). */
bool status_info(Model *m, const Step *st);
/* Guarantees: the effect of `tracer exit R`: the legacy session's state process is dead. */
bool status_tracer_exit(Model *m, const Step *st);
/* Guarantees: after a step the harness settles on (run.c decides which), every scenario
 * process waiting in the harness's gate whose legacy tracer is the example tracer with its
 * state dead has lost that tracer and its flags (STATUS-DEAD-STATE-SCHEDULE-IN), silently. */
void status_settled(Model *m);
/* Guarantees: the effect on process p of a request it handles itself (trace:session_info(Pid)):
 * a live process blocked in a receive or suspended on a busy port is scheduled in for it and
 * loses a legacy example tracer whose state is dead (STATUS-DEAD-STATE-SCHEDULE-IN); true iff
 * it lost it. A process waiting in the gate has it answered for it, and keeps the tracer. */
bool status_asked_scheduled(Model *m, int p);

#endif
