/* order.c - the order in which several sessions see one event: by when their tracer got
 * attached to the process (SESSION-ORDER-PROCESS) or their breakpoint set on the function
 * (SESSION-ORDER-CALL), and the places in that order that attaching and patterns give
 * (CONFORMANCE.md section 2, "Trace sessions"). */
#include "order.h"

/* insertion sort: n is the number of sessions, a handful */
void order_sort(int *idx, const unsigned *key, int n, bool latest_first)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (latest_first ? key[idx[j]] > key[idx[j - 1]] : key[idx[j]] < key[idx[j - 1]]); j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

int order_by_attach(const Model *m, int proc, int **out)
{
    unsigned *key = arena_alloc(m->scratch, (size_t)m->nsessions * sizeof *key);
    int *idx = *out = arena_alloc(m->scratch, (size_t)m->nsessions * sizeof *idx);
    int n = 0;
    for (int s = 0; s < m->nsessions; s++) {
        const TraceState *ts = &m->procs[proc].trace[s];
        key[s] = ts->since;
        if (model_attached(ts))
            idx[n++] = s;
    }
    order_sort(idx, key, n, true);
    return n;
}

int order_session_list(const Model *m, int **out)
{
    /* erl_bif_trace.c erts_trace_session_init: session 0 (legacy) heads the list and each new
     * session is linked in right after it, so the others are newest first */
    unsigned *key = arena_alloc(m->scratch, (size_t)m->nsessions * sizeof *key);
    int *idx = *out = arena_alloc(m->scratch, (size_t)m->nsessions * sizeof *idx);
    for (int s = 0; s < m->nsessions; s++) {
        key[s] = s == LEGACY_SESSION ? ~0u : m->sessions[s].since;
        idx[s] = s;
    }
    order_sort(idx, key, m->nsessions, true);
    return m->nsessions;
}

void order_place_defaults(Model *m, TraceState *ts, const bool *placed)
{
    /* SESSION-ORDER-NEW: a new process or port gets one tracer reference per session whose
     * defaults it takes, made walking the session list, each put at the head of its list
     * (erl_trace.c new_tracer_ref): the last one made, the earliest created session, comes
     * first; when the defaults were set does not matter */
    int *list;
    int n = order_session_list(m, &list);
    for (int i = 0; i < n; i++) {
        int s = list[i];
        if (model_attached(&ts[s]) || (placed && placed[s]))
            ts[s].since = ++m->clock;
    }
}

int order_by_pattern(const Model *m, int fn, bool global, int **out)
{
    /* a session with both a global and a local or meta pattern is in the list twice */
    unsigned *key = arena_alloc(m->scratch, (size_t)m->nsessions * sizeof *key);
    int *idx = *out = arena_alloc(m->scratch, 2 * (size_t)m->nsessions * sizeof *idx);
    int n = 0;
    for (int pass = global ? 0 : 1; pass < 2; pass++) { /* the export entry, then the function */
        int first = n;
        for (int s = 0; s < m->nsessions; s++) {
            const Pattern *pat = &m->sessions[s].pats[fn];
            key[s] = pat->since;
            if (pass == 0 ? pat->set && !pat->local : (pat->set && pat->local) || pat->meta)
                idx[n++] = s;
        }
        order_sort(idx + first, key, n - first, true);
    }
    return n;
}

void order_set_flags(Model *m, TraceState *ts, FlagSet set, bool on, Answer probe, const char *origin)
{
    if (on && probe == ANS_REMOVE) { /* STATUS-REMOVE, STATUS-REMOVE-FLAGS; the call still succeeds */
        model_detach(ts);
    } else if (on) {
        if (!model_attached(ts)) { /* SESSION-ORDER-PROCESS: newly attached, first in the order */
            ts->since = ++m->clock;
            ts->origin = origin;
        }
        ts->flags |= set;
        ts->ts_cleared &= ~set;
        ts->attached = true;
    } else {
        ts->flags &= ~set;
        ts->ts_cleared |= set & FLAGS_TIMESTAMPS; /* TS-REMEMBERED */
        if (ts->flags == 0) /* FLAGS-OFF-EMPTY: no flags left, the tracer goes (SESSION-ORDER-PROCESS) */
            model_detach(ts);
    }
}

/* Whether a pattern keeps a counter (call_count, call_time, call_memory), running or paused. */
static bool counting(const Pattern *pat)
{
    for (int k = 0; k < COUNTERS; k++)
        if (pat->counters[k].state != COUNTER_OFF)
            return true;
    return false;
}

bool order_pattern_in_use(const Pattern *pat)
{
    return pat->set || pat->meta || counting(pat);
}

void order_note_pattern(Model *m, Pattern *pat, const Pattern *before)
{
    bool moved = (pat->set && (!before->set || pat->local != before->local)) ||
                 (counting(pat) && !order_pattern_in_use(before)); /* a counter on a function with nothing else */
    if (moved || (pat->meta && !before->meta))
        pat->since = ++m->clock;
}
