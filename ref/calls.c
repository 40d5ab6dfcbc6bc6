/* calls.c - calls of the fixture module tcs_target, as the trace patterns of each session
 * see them (CONFORMANCE.md section 2, EV-CALL and the match specification rules). */
#include <stdio.h>
#include <string.h>

#include "model.h"

int calls_target_index(const char *fn)
{
    static const char *const fns[TARGET_FNS] = {"id", "twice", "tail"};
    for (int i = 0; i < TARGET_FNS; i++)
        if (strcmp(fns[i], fn) == 0)
            return i;
    return -1;
}

static Term *target_mfa(Model *m, const char *fn, Term *args_or_arity)
{
    return term_tuple3(m->a, term_atom(m->a, "tcs_target"), term_atom(m->a, fn), args_or_arity);
}

/* The call tracepoint of session s, one of nsessions whose patterns see the call; true iff
 * its match spec asked for {return_trace}.  EV-CALL-GLOBAL-LOCAL: sessions_by_pattern gives
 * global patterns only the calls through the export entry. */
static bool call_tracepoint(Model *m, int s, int nsessions, int p, const char *fn, Term *args, bool global)
{
    const Pattern *pat = &m->sessions[s].pats[calls_target_index(fn)];
    if (!enabled_live(m, s, p, "call"))
        return false;
    const char *rules = sessions_rules(m, s, nsessions, global ? "EV-CALL" : "EV-CALL EV-CALL-GLOBAL-LOCAL",
                                       "SESSION-ORDER-CALL");
    /* the enabled check comes before the match spec runs (erts_call_trace) */
    if (!tracepoint_accept(m, s, p, "call", rules))
        return false;
    MsOutcome o = ms_run(m->a, pat->ms, args);
    if (o.matched && !o.suppress) {
        bool arity = m->procs[p].trace[s].flags & FLAG_BIT(FL_ARITY);
        Buf r;
        buf_init(&r);
        buf_printf(&r, "%s%s", rules, o.has_message ? " EV-MS-MESSAGE" : "");
        Event ev = {"call", target_mfa(m, fn, arity ? term_int(m->a, 1) : args), NULL, o.result, buf_str(&r), NULL};
        tracepoint_emit(m, s, p, &ev, "ENABLED-TRACE");
        buf_free(&r);
    }
    return o.matched && o.return_trace;
}

/* Calls tcs_target:fn(arg) in process p, tracing as the patterns say; returns the value. */
static Term *call_fn(Model *m, int p, const char *fn, Term *arg, bool global)
{
    Term *args = term_list(m->a, 1, &arg);
    int order[MAX_SESSIONS];
    int n = sessions_by_pattern(m, calls_target_index(fn), global, order);
    bool return_trace[MAX_SESSIONS];
    for (int i = 0; i < n; i++)
        return_trace[i] = call_tracepoint(m, order[i], n, p, fn, args, global);
    Term *result;
    if (strcmp(fn, "twice") == 0) {
        Term *x = call_fn(m, p, "id", arg, false);
        Term *y = call_fn(m, p, "id", arg, false);
        result = term_tuple3(m->a, x, y, NULL);
    } else if (strcmp(fn, "tail") == 0) {
        result = call_fn(m, p, "id", arg, false);
    } else {
        result = arg;
    }
    for (int i = n - 1; i >= 0; i--) { /* SESSION-ORDER-CALL: the return frames unwind */
        int s = order[i];
        if (!return_trace[i] || !enabled_live(m, s, p, "return_from"))
            continue;
        /* ENABLED-RETURN-FROM (C-1): no enabled call before return_from */
        Event ev = {"return_from", target_mfa(m, fn, term_int(m->a, 1)), result, NULL,
                    sessions_rules(m, s, n, "EV-RETURN-FROM", "SESSION-ORDER-CALL"), NULL};
        tracepoint_emit(m, s, p, &ev, "ENABLED-RETURN-FROM");
    }
    return result;
}

bool calls_step(Model *m, int p, const Step *st)
{
    call_fn(m, p, st->fn, st->args->u.cons.head, true);
    return true;
}
