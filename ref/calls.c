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

/* The call tracepoint of session s; true iff its match spec asked for {return_trace}. */
static bool call_tracepoint(Model *m, int s, int p, const char *fn, Term *args, bool global)
{
    const Pattern *pat = &m->sessions[s].pats[calls_target_index(fn)];
    /* EV-CALL-GLOBAL-LOCAL: a global pattern sees only calls through the export entry */
    if (!pat->set || !(global || pat->local) || !enabled_live(m, s, p, "call"))
        return false;
    /* FLAGS-SILENT: enabled_call is asked, but no call (and no return_from) is traced */
    bool silent = m->procs[p].trace[s].flags & FLAG_BIT(FL_SILENT);
    const char *rules = global ? (silent ? "EV-CALL FLAGS-SILENT" : "EV-CALL")
                               : (silent ? "EV-CALL EV-CALL-GLOBAL-LOCAL FLAGS-SILENT" : "EV-CALL EV-CALL-GLOBAL-LOCAL");
    /* the enabled check comes before the match spec runs (erts_call_trace) */
    if (!enabled_consult(m, s, p, "call", rules))
        return false;
    MsOutcome o = ms_run(m->a, pat->ms, args);
    if (o.matched && !o.suppress && !silent) {
        bool arity = m->procs[p].trace[s].flags & FLAG_BIT(FL_ARITY);
        char r[96];
        snprintf(r, sizeof r, "%s%s", rules, o.has_message ? " EV-MS-MESSAGE" : "");
        Event ev = {"call", target_mfa(m, fn, arity ? term_int(m->a, 1) : args), NULL, o.result, r};
        tracepoint_emit(m, s, p, &ev, "ENABLED-TRACE");
    }
    return o.matched && o.return_trace && !silent;
}

/* Calls tcs_target:fn(arg) in process p, tracing as the patterns say; returns the value. */
static Term *call_fn(Model *m, int p, const char *fn, Term *arg, bool global)
{
    Term *args = term_list(m->a, 1, &arg);
    bool return_trace[MAX_SESSIONS];
    for (int s = 0; s < m->nsessions; s++)
        return_trace[s] = call_tracepoint(m, s, p, fn, args, global);
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
    for (int s = 0; s < m->nsessions; s++) {
        if (!return_trace[s] || !enabled_live(m, s, p, "return_from"))
            continue;
        /* ENABLED-RETURN-FROM (C-1): no enabled call before return_from */
        Event ev = {"return_from", target_mfa(m, fn, term_int(m->a, 1)), result, NULL, "EV-RETURN-FROM"};
        tracepoint_emit(m, s, p, &ev, "ENABLED-RETURN-FROM");
    }
    return result;
}

bool calls_step(Model *m, int p, const Step *st)
{
    call_fn(m, p, st->fn, st->args->u.cons.head, true);
    return true;
}
