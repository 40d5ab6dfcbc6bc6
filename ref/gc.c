/* gc.c - garbage collection (CONFORMANCE.md section 2, "Garbage collection").
 * The Info lists hold sizes that no model can predict: they print as _GcInfo, and the live
 * driver checks their shape before replacing them (GC-INFO). */
#include "model.h"

static void gc_pair(Model *m, int p, const char *start, const char *end, const char *rules)
{
    tracepoint_event(m, p, start, term_placeholder(m->a, "_GcInfo"), NULL, rules);
    tracepoint_event(m, p, end, term_placeholder(m->a, "_GcInfo"), NULL, rules);
}

bool gc_step(Model *m, int p, const Step *st)
{
    if (term_is_atom(st->term, "minor")) {
        /* GC-MINOR: erlang:garbage_collect(self(), [{type, minor}]) collects the young
         * generation; OTP 25 follows it with a fullsweep at once (GC-MINOR-THEN-MAJOR, C-63) */
        gc_pair(m, p, "gc_minor_start", "gc_minor_end", "GC-INFO GC-MINOR");
        gc_pair(m, p, "gc_major_start", "gc_major_end", "GC-INFO GC-MINOR-THEN-MAJOR");
    } else { /* GC-MAJOR: erlang:garbage_collect() is a fullsweep */
        gc_pair(m, p, "gc_major_start", "gc_major_end", "GC-INFO GC-MAJOR");
    }
    return true;
}
