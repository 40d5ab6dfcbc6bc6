/* largeheap.h - the large_heap monitor of trace sessions, for the one process whose heap a
 * case makes grow (OTP 28+, SYSMON-LARGE-HEAP). */
#ifndef TCS_LARGEHEAP_H
#define TCS_LARGEHEAP_H
#include "model.h"

/* Guarantees: what the sessions that monitor large heaps get about process q, which built a
 * list of len elements (2 len words, all live) and was killed by its max_heap_size of
 * max_heap words (killed) or returned: a first {monitor,<q>,large_heap,_Info} and a window for
 * any number more where some collection must leave a heap at the limit, nothing where none can
 * or the process was killed; false with err set where model v1 cannot tell. */
bool largeheap_list(Model *m, int q, long long len, long long max_heap, bool killed);

/* Guarantees: what the legacy system monitor (erlang:system_monitor/2) gets after a requested
 * collection of process q, a scenario process that holds little (the case is one
 * sysmon_legacy_set accepted): {monitor,<q>,large_heap,_Info} when q's min_heap_size reaches
 * the large_heap limit, nothing about the monitor itself nor when a quarter of the limit or
 * less; false with err set between, and for a message to a scenario process. */
bool largeheap_collected(Model *m, int q);

#endif
