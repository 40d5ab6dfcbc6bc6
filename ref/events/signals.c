/* signals.c - exit signals sent with exit/2, and trapping them (CONFORMANCE.md section 2,
 * "Exit signals": the SIGNAL-* rules). An exit signal itself is no trace event: what a tracer
 * sees is what the receiver does with it (exits, or gets a message). The signals of links are
 * in procs.c (procs_terminate), which comes here for a receiver that traps exits. */
#include "messages.h"
#include "procs.h"
#include "signals.h"

bool signals_trapped(Model *m, int q, const Term *from, const Term *reason, const char *rules)
{
    /* {'EXIT', From, Reason}: the terms are the model's own, shared read-only */
    Term *msg = term_tuple3(m->a, term_atom(m->a, "EXIT"), (Term *)from, (Term *)reason);
    return messages_deliver(m, q, msg, from, NULL, rules);
}

bool signals_kill(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    if (q == p)
        return model_unsupported(m, st->line, st->other_col, "a process sending an exit signal to itself is");
    Proc *qp = &m->procs[q];
    if (!qp->alive) /* SIGNAL-DEAD: exit/2 to a process that is gone does nothing */
        return true;
    if (term_is_atom(st->term, "kill")) /* SIGNAL-KILL: untrappable, the reason becomes killed */
        return procs_terminate(m, q, term_atom(m->a, "killed"), "EV-EXIT SIGNAL-KILL", NULL);
    if (qp->trap_exit) /* SIGNAL-TRAP: the signal becomes a message, normal too */
        return signals_trapped(m, q, model_pid(m, p), st->term, "EV-RECEIVE SIGNAL-TRAP");
    if (term_is_atom(st->term, "normal")) /* SIGNAL-NORMAL: ignored by a process not trapping */
        return true;
    return procs_terminate(m, q, st->term, "EV-EXIT SIGNAL-EXIT", NULL); /* SIGNAL-EXIT */
}

bool signals_trap_exit(Model *m, int p, const Step *st)
{
    m->procs[p].trap_exit = term_is_atom(st->term, "true");
    return true;
}
