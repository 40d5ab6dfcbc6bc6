/* largeheap.c - the large_heap monitor of trace sessions (CONFORMANCE.md section 2, "System
 * monitoring in a session", SYSMON-LARGE-HEAP), for a process running {lists,seq,[From,To]}, and
 * of the legacy system monitor after a requested collection (SYSMON-LEGACY-LARGE-HEAP).
 * lists:seq/2 leaves no garbage: everything it allocates is its list, live until it returns. So
 * the heap left by its last collection holds all 2 len words; one collection at least leaves a
 * heap of the limit when len >= limit, none can when 64 len + 10000 =< limit (a heap is a few
 * times its live data at most). How many collections reach the limit is the heap growth
 * policy's: the first message is stated, any more are allowed. */
#include <string.h>

#include "control.h"
#include "largeheap.h"
#include "races.h"
#include "sysmsg.h"

bool largeheap_list(Model *m, int q, long long len, long long max_heap, bool killed)
{
    for (int s = 1; s < m->nsessions; s++) {
        long long limit = m->sessions[s].sysmon.large_heap;
        if (m->sessions[s].life != LIFE_ALIVE || limit < 0)
            continue;
        if (killed && limit >= max_heap) /* killed before the collection completes */
            continue;
        if (!killed && 64 * len + 10000 <= limit)
            continue;
        if (killed || len < limit)
            return model_unsupported(m, m->step->line, m->step->term_col,
                                     killed ? "a large_heap limit below the max_heap_size of a process it kills is"
                                            : "a list that may or may not leave a heap of the large_heap limit is");
        Term *info = term_placeholder(m->a, "_Info");
        sysmsg_monitor(m, s, q, "large_heap", info, "SYSMON-LARGE-HEAP SYSMON-MESSAGE");
        unsigned w = races_open(m, RACE_LARGE_HEAP, 0, sysmsg_template(m, s, q, "large_heap", info));
        races_close(m, RACE_LARGE_HEAP, w);
    }
    return true;
}

bool largeheap_collected(Model *m, int q)
{
    long long limit = m->legacy_limit, min_heap = m->procs[q].min_heap_size;
    /* a heap after a collection is its min_heap_size rounded up to the next heap size (at most
     * 1.7 times it) when what the process holds is small (C-640) */
    if (!m->legacy_monitor || strcmp(m->legacy_event, "large_heap") != 0 || 4 * min_heap <= limit)
        return true;
    if (min_heap < limit)
        return model_unsupported(m, m->step->line, m->step->col,
                                 "a collection of a process whose min_heap_size is near the large_heap limit is");
    int monitor = model_proc(m, m->legacy_monitor);
    if (monitor == q) /* SYSMON-LEGACY-SELF: the dispatcher drops a message about its receiver */
    {
        control_decided(m, "SYSMON-LEGACY-SELF");
        return true;
    }
    if (monitor >= 0)
        return model_unsupported(m, m->step->line, m->step->col,
                                 "a large_heap message to a scenario process (its Info in a trace event) is");
    sysmsg_legacy_monitor(m, q, "large_heap", term_placeholder(m->a, "_Info"),
                          "SYSMON-LEGACY-LARGE-HEAP SYSMON-MESSAGE");
    return true;
}
