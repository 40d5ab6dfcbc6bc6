/* porttracer.c - a port as the legacy tracer (CONFORMANCE.md section 2, "Trace sessions",
 * PORT-TRACER): erlang:trace/3 with {tracer, Port}. The runtime's built-in tracer module,
 * erl_tracer, builds the message a tracer process would get and writes its external term
 * format to the port as one command (erl_tracer_nif.c trace/6: enif_term_to_binary, then
 * enif_port_command); its enabled/3 answers remove once the port is gone. */
#include "control.h"
#include "porttracer.h"
#include "procs.h"
#include "release.h"
#include "status.h"

bool porttracer_step(Model *m, const Step *st)
{
    (void)st;
    /* the port cat, whose {packet, 4} framing hands each command back whole to its owner, the
     * harness's tracer state process: what the runtime wrote is what the stream shows */
    Term *port = term_port(m->a, "tracer_port");
    Buf result;
    buf_init(&result);
    buf_puts(&result, "-> ");
    term_print(&result, port, PRINT_CANON);
    control_line(m, "erlang:open_port({spawn,\"cat\"},[binary,{packet,4}])", buf_str(&result), "PORT-TRACER");
    buf_free(&result);
    m->sessions[LEGACY_SESSION].state_term = port;
    return true;
}

/* Why the model cannot state q killed in the burst, or NULL: a process with links or monitors
 * (their signals and 'DOWN's would race the port's closing), one busy in a loop, suspended or on
 * the peer node. */
static const char *kill_all_refuses(const Model *m, int q)
{
    const Proc *pr = &m->procs[q];
    const char *what = NULL;
    if (pr->nlinks > 0 || pr->nwatchers > 0)
        what = "'kill_all' of a process with links or monitors is";
    else if (pr->looping || pr->nsuspenders > 0 || pr->suspended || pr->remote)
        what = "'kill_all' of a process busy in a loop, suspended or on the peer node is";
    return what;
}

/* True iff q waits at its gate, in the gate's dirty NIF (not blocked in a receive), traced by the
 * port for running_procs or running: C-502's trigger as otp_bugs/porttracer_dirty_kill.erl has it. */
static bool runs_dirty_traced(const Model *m, int q)
{
    const Proc *pr = &m->procs[q];
    const TraceState *ts = &pr->trace[LEGACY_SESSION];
    FlagSet sched = FLAG_BIT(FL_RUNNING_PROCS) | FLAG_BIT(FL_RUNNING);
    return !pr->blocked && model_attached(ts) && (ts->flags & sched) != 0;
}

/* Whether a process the harness makes now could be seen by the case (KILL-ALL-ROUNDS): a
 * '_':'_'/'_' pattern is set (the harness's code would be counted, or meta traced), or the legacy
 * system monitor watches every process. New processes' and ports' defaults need no check: they name
 * the case's tracer port, closed by the first burst, and no case names another tracer with it. */
static bool harness_processes_seen(const Model *m)
{
    return m->all_modules_pattern || m->legacy_monitor != NULL;
}

bool porttracer_kill_all(Model *m, const Step *st)
{
    /* the list's head is the tracer port's owner (the parser puts it first), its tail the processes */
    const Term *procs = st->args->u.cons.tail;
    bool trigger = false;
    for (const Term *t = procs; t->kind == TK_CONS; t = t->u.cons.tail) {
        int q = model_proc(m, t->u.cons.head->u.name);
        if (!m->procs[q].alive)
            continue;
        const char *what = kill_all_refuses(m, q);
        if (what)
            return model_unsupported(m, st->line, st->col, what);
        trigger |= runs_dirty_traced(m, q);
    }
    /* KILL-ALL-PORT-OWNER: the owner's kill signal goes first, so it is in the owner's queue
     * before any tracee dies: the owner dies with no echo of their deaths handed on, and the port
     * closes with it (PORT-TRACER-DEAD), so the tracees' last events make no line */
    control_decided(m, "KILL-ALL-PORT-OWNER");
    if (!status_tracer_exit(m, st))
        return false;
    for (const Term *t = procs; t->kind == TK_CONS; t = t->u.cons.tail) {
        int q = model_proc(m, t->u.cons.head->u.name);
        if (!m->procs[q].alive) /* SIGNAL-DEAD: exit/2 to a process that is gone does nothing */
            control_decided(m, "SIGNAL-DEAD");
        else if (!procs_terminate(m, q, term_atom(m->a, "killed"), "EV-EXIT SIGNAL-KILL", NULL))
            return false; /* SIGNAL-KILL: each live one exits killed */
    }
    /* KILL-ALL-ROUNDS: the harness's other rounds are bursts of processes and a port of its own,
     * traced by that port alone, all gone before the step ends: no line of the case comes of them */
    if (st->rounds > 1) {
        if (harness_processes_seen(m))
            return model_unsupported(m, st->line, st->col,
                                     "'kill_all ... rounds' after a '_':'_'/'_' pattern or while the system "
                                     "monitor is set is");
        control_decided(m, "KILL-ALL-ROUNDS");
    }
    if (trigger) { /* a race: a tracee must be on the dirty scheduler as the port closes (C-502) */
        m->may_crash_seen = true;
        release_deviates(m, DEV_PORT_OWNER_DIRTY_KILL_MAY_CRASH);
    }
    return true;
}
