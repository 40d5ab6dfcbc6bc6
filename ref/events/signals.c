/* signals.c - exit signals sent with exit/2, and trapping them (CONFORMANCE.md section 2,
 * "Exit signals": the SIGNAL-* rules). An exit signal itself is no trace event: what a tracer
 * sees is what the receiver does with it (exits, or gets a message). The signals of links are
 * in procs.c (procs_terminate), which comes here for a receiver that traps exits. */
#include "control.h"
#include "messages.h"
#include "procs.h"
#include "running.h"
#include "seqtrace.h"
#include "signals.h"
#include "tracepoint.h"

bool signals_trapped(Model *m, int q, const Term *from, const Term *reason, const char *rules)
{
    return signals_trapped_as(m, q, from, from, reason, rules);
}

bool signals_trapped_as(Model *m, int q, const Term *from, const Term *sender, const Term *reason,
                        const char *rules)
{
    /* {'EXIT', From, Reason}: the terms are the model's own, shared read-only */
    Term *msg = term_tuple3(m->a, term_atom(m->a, "EXIT"), (Term *)from, (Term *)reason);
    return messages_deliver(m, q, msg, sender, NULL, rules);
}

bool signals_trapped_link(Model *m, int q, const Term *from, const Term *reason, const SeqToken *token,
                          const char *rules)
{
    /* a blocked process is scheduled in by the signal and handles it in that schedule: its
     * wake-up comes before the unlink (RUN-WAKE; fuzz group R8, C-323) */
    bool woken = m->procs[q].blocked;
    if (woken)
        running_wake(m, q);
    tracepoint_event(m, q, "getting_unlinked", from, NULL, "EV-LINK SIGNAL-TRAP-LINK");
    Term *msg = term_tuple3(m->a, term_atom(m->a, "EXIT"), (Term *)from, (Term *)reason);
    return messages_deliver_woken(m, q, msg, from, token, rules, woken);
}

bool signals_kill(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    Proc *qp = &m->procs[q];
    /* A process trapping exits gets its own signal as a message like any other (SIGNAL-TRAP,
     * trace_SUITE's trap_exit_self_receive/1); one the signal would end dies inside its own
     * step, which the harness cannot report */
    if (q == p && (!qp->trap_exit || term_is_atom(st->term, "kill")))
        return model_unsupported(m, st->line, st->other_col,
                                 "a process sending itself an exit signal that ends it (not trapping exits, or kill) is");
    if (qp->remote || m->procs[p].remote) /* DIST-EXIT: an exit signal across nodes, as a local one */
        control_decided(m, "DIST-EXIT");
    if (!qp->alive) { /* SIGNAL-DEAD: exit/2 to a process that is gone does nothing */
        control_decided(m, "SIGNAL-DEAD");
        return true;
    }
    if (term_is_atom(st->term, "kill")) /* SIGNAL-KILL: untrappable, the reason becomes killed */
        return procs_terminate(m, q, term_atom(m->a, "killed"), "EV-EXIT SIGNAL-KILL", NULL);
    if (qp->trap_exit) /* SIGNAL-TRAP: the signal becomes a message, normal too */
        return signals_trapped(m, q, model_pid(m, p), st->term, "EV-RECEIVE SIGNAL-TRAP");
    if (term_is_atom(st->term, "normal")) { /* SIGNAL-NORMAL: ignored by a process not trapping */
        control_decided(m, "SIGNAL-NORMAL");
        return true;
    }
    return procs_terminate(m, q, st->term, "EV-EXIT SIGNAL-EXIT", NULL); /* SIGNAL-EXIT */
}

bool signals_trap_exit(Model *m, int p, const Step *st)
{
    m->procs[p].trap_exit = term_is_atom(st->term, "true");
    return true;
}

/* {'DOWN', _Ref, process, <q>, Reason} reaches watcher w: its 'receive' event, sender <q>. */
static bool down(Model *m, int w, int q, const Term *reason, const char *rules)
{
    Term *el[5] = {term_atom(m->a, "DOWN"), term_placeholder(m->a, "_Ref"), term_atom(m->a, "process"),
                   model_pid(m, q), (Term *)reason};
    /* SEQ-RECEIVE-RUNTIME: the runtime makes the 'DOWN', no process sends it (C-360) */
    return messages_deliver(m, w, term_tuple(m->a, 5, el), model_pid(m, q), seqtrace_down_token(reason), rules);
}

bool signals_monitor(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    if (q == p)
        return model_unsupported(m, st->line, st->other_col, "a process monitoring itself is");
    Proc *qp = &m->procs[q];
    if (!qp->alive) /* SIGNAL-DOWN: a monitor of a process that is gone fires at once */
        return down(m, p, q, term_atom(m->a, "noproc"), "EV-RECEIVE SIGNAL-DOWN");
    qp->watchers = arena_grow(m->a, qp->watchers, (size_t)qp->nwatchers, &qp->watchers_cap, sizeof *qp->watchers);
    qp->watchers[qp->nwatchers++] = p;
    return true;
}

bool signals_down(Model *m, int q, const Term *reason)
{
    Proc *qp = &m->procs[q];
    int *watchers = qp->watchers, n = qp->nwatchers;
    qp->watchers = NULL;
    qp->nwatchers = 0;
    qp->watchers_cap = 0;
    for (int i = 0; i < n; i++)
        if (m->procs[watchers[i]].alive && !down(m, watchers[i], q, reason, "EV-RECEIVE SIGNAL-DOWN"))
            return false;
    return true;
}
