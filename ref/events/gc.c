/* gc.c - garbage collection (CONFORMANCE.md section 2, "Garbage collection").
 * The Info lists hold sizes that no model can predict: they print as _GcInfo, and the live
 * driver checks their shape before replacing them (GC-INFO). */
#include <string.h>

#include "gc.h"
#include "largeheap.h"
#include "release.h"
#include "tracepoint.h"

static void gc_pair(Model *m, int p, const char *start, const char *end, const char *rules)
{
    tracepoint_event(m, p, start, term_placeholder(m->a, "_GcInfo"), NULL, rules);
    tracepoint_event(m, p, end, term_placeholder(m->a, "_GcInfo"), NULL, rules);
}

bool gc_step(Model *m, int p, const Step *st)
{
    const char *last = m->procs[p].last_traced;
    if (term_is_atom(st->term, "major") && last && strcmp(last, "gc_minor_end") == 0)
        return model_unsupported(m, st->line, st->col,
                                 "a fullsweep right after a minor collection (GC-MINOR-FULLSWEEP) is");
    /* C-92: OTP 27 frees the first session's info list before the second session reads it */
    if (release_gc_in_two_sessions(m, p) && release_deviates(m, DEV_GC_TWO_SESSIONS_CRASH))
        return true; /* a crash: the run ends here */
    if (term_is_atom(st->term, "minor") && m->procs[p].fullsweep_after)
        /* erlang:spawn_opt/4, not among the documents: "{fullsweep_after, Number}" ... a
         * fullsweep once Number minor collections have passed; seen live on 25, 27 and 29 with
         * 0: every collection a major one, the requested minor ones too */
        return model_unsupported(m, st->line, st->col,
                                 "a minor collection of a process spawned with {fullsweep_after, N} is");
    if (term_is_atom(st->term, "minor")) {
        /* GC-MINOR: erlang:garbage_collect(self(), [{type, minor}]) collects the young
         * generation; a fullsweep the runtime may add right after it is informative
         * (GC-MINOR-FULLSWEEP) */
        gc_pair(m, p, "gc_minor_start", "gc_minor_end", "GC-INFO GC-MINOR");
    } else { /* GC-MAJOR: erlang:garbage_collect() is a fullsweep */
        gc_pair(m, p, "gc_major_start", "gc_major_end", "GC-INFO GC-MAJOR");
    }
    return largeheap_collected(m, p);
}
