/* longsched.h - the long_schedule monitor of the legacy system monitor and of trace sessions,
 * for a process that sleeps in a NIF (SYSMON-LONG-SCHEDULE, C-730). */
#ifndef TCS_LONGSCHED_H
#define TCS_LONGSCHED_H
#include "model.h"

/* Guarantees: windows ("A open ... 0..*") for any number of {monitor,Subject,long_schedule,_Info}
 * messages to the tracer process receiver, one per Subject it may get them about (every
 * scenario process and port alive, every other tracer process of the case, <?> and <port:?>
 * for the harness's and the runtime's); returns the first window's id, *n the count. */
unsigned longsched_watch(Model *m, const char *receiver, int *n);
/* Guarantees: the n windows from first (longsched_watch's) closed. */
void longsched_unwatch(Model *m, unsigned first, int n);
/* Guarantees: process p ran ms milliseconds uninterrupted (tcs_nif:sleep/1): each monitor whose
 * long_schedule limit is ms or less gets {monitor,<p>,long_schedule,_Info} (once stated; its
 * window admits more). */
void longsched_ran(Model *m, int p, long long ms);

#endif
