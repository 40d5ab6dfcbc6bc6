/* sched.c - whether and where a process's scheduling is traced (CONFORMANCE.md section 2,
 * "Scheduling"): below the races, which build their templates with it. */
#include "enabled.h"
#include "sched.h"
#include "tracepoint.h"

bool sched_traced(const Model *m, int p)
{
    for (int s = 0; s < m->nsessions; s++)
        if (enabled_live(m, s, p, "in"))
            return true;
    return false;
}

Term *sched_block_mfa(Model *m)
{
    return term_tuple3(m->a, term_atom(m->a, "tcs_puppet"), term_atom(m->a, "block"), term_int(m->a, 0));
}

Term *sched_suspended_mfa(Model *m, int p)
{
    if (m->procs[p].pending_send)
        return term_tuple3(m->a, term_atom(m->a, "erlang"), term_atom(m->a, "send"), term_int(m->a, 2));
    return term_tuple3(m->a, term_atom(m->a, "erts_internal"), term_atom(m->a, "port_command"), term_int(m->a, 3));
}

void sched_port_context(Model *m, int p, const char *tag, const Term *mfa)
{
    /* RUN-PROCS-PORT-CONTEXT: io.c try_imm_drv_call traces the calling process out, and
     * finalize_imm_drv_call back in, for F_TRACE_SCHED_PROCS (running_procs) only, naming the
     * function it was last scheduled at (erl_trace.c trace_sched_aux prints p->current) */
    Event ev = {tag, mfa, NULL, NULL, "RUN-FLAGS RUN-PROCS-PORT-CONTEXT"};
    tracepoint_fire_flagged(m, p, &ev, FLAG_BIT(FL_RUNNING_PROCS));
}
