/* handles.c - the handles of trace sessions (CONFORMANCE.md section 2, "Trace sessions"): the
 * session a step names, its printed form, and why a call refuses it. */
#include <string.h>

#include "handles.h"

int handles_session(const Step *st) { return st->session == SESSION_LEGACY ? LEGACY_SESSION : st->session + 1; }

Term *handles_term(Model *m, int s, bool weak)
{
    if (s == LEGACY_SESSION)
        return term_tuple3(m->a, term_atom(m->a, "legacy"), term_atom(m->a, "default"), NULL);
    Term *w = term_tuple3(m->a, term_atom(m->a, m->sessions[s].state), term_placeholder(m->a, "_Id"), NULL);
    return weak ? w : term_tuple3(m->a, term_placeholder(m->a, "_Ref"), w, NULL);
}

void handles_call_head(Model *m, Buf *call, const char *fn, const Step *st)
{
    buf_printf(call, "trace:%s(", fn);
    term_print(call, st->session_term ? st->session_term : handles_term(m, handles_session(st), st->weak),
               PRINT_CANON);
}

const char *handles_refused(const Model *m, const Step *st)
{
    if (st->session_term)
        return "SESSION-NOT-A-HANDLE";
    if (st->session == SESSION_LEGACY)
        return "SESSION-LEGACY-WEAK";
    if (m->sessions[handles_session(st)].life != LIFE_ALIVE)
        return "SESSION-DEAD-HANDLE";
    return NULL;
}

bool handles_apply_destroys(const Model *m, const Step *st)
{
    if (strcmp(st->fn, "session_destroy") != 0 || st->session == SESSION_NONE)
        return false;
    /* a strong handle of a destroyed session keeps its binary: the BIF finds it and answers
     * false (erl_bif_trace.c erts_internal_trace_session_destroy_1: "if
     * (!erts_is_trace_session_alive(session)) ... BIF_RET(am_false)"; fuzz group X1 of seed
     * 20261204). Only a weak one, or no handle, raises. */
    const char *refused = handles_refused(m, st);
    return !refused || (strcmp(refused, "SESSION-DEAD-HANDLE") == 0 && !st->weak);
}
