/* drvports.c - ports of the suite's linked-in driver tcs_drv (drivers/tcs_drv.c; CONFORMANCE.md
 * section 2, "Driver ports"): port_control/3 and what it provokes: the busy state, the process a
 * busy port suspends and its resumption, the driver's timer. Its commands are ports.c's. */
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "drvports.h"
#include "msgtrace.h"
#include "ports.h"
#include "races.h"
#include "running.h"
#include "sched.h"
#include "sysmsg.h"
#include "tracepoint.h"
#include "windows.h"

static Term *pair(Model *m, Term *a, Term *b) { return term_tuple3(m->a, a, b, NULL); }

bool drvports_suspend(Model *m, int p, int x, const Step *st, bool via_send)
{
    if (m->procs[x].suspended)
        return model_unsupported(m, st->line, st->col, "a second process suspended on one busy port is");
    /* SYSMON-BUSY-PORT: "If a process in the system gets suspended because it sends to a busy
     * port, a message {monitor, SusPid, busy_port, Port} is sent" */
    for (int s = 1; s < m->nsessions; s++)
        if (m->sessions[s].life == LIFE_ALIVE && m->sessions[s].sysmon.busy_port)
            sysmsg_monitor(m, s, p, "busy_port", model_id(m, x), "SYSMON-BUSY-PORT SYSMON-MESSAGE");
    /* PORTS-DRIVER-BUSY: port_command/2 to a busy port suspends the caller; nothing reaches the
     * port until it is not busy */
    control_decided(m, via_send ? "PORTS-DRIVER-BUSY PORTS-DRIVER-BUSY-SEND" : "PORTS-DRIVER-BUSY");
    m->procs[x].suspended = p + 1;
    m->procs[p].suspended = x + 1;
    m->procs[p].pending = st->term;
    m->procs[p].pending_send = via_send;
    /* RUN-SUSPENDED-BUSY-PORT: erl_bif_port.c erts_internal_port_command_3 (a send: erl_send)
     * suspends the caller and yields, to retry the command when it is resumed: scheduled out there */
    tracepoint_event(m, p, "out", sched_suspended_mfa(m, p), NULL, "RUN-FLAGS RUN-SUSPENDED-BUSY-PORT");
    return drvports_consistent(m);
}

/* The data port_control/3 passes for op: the timer's milliseconds in decimal, else nothing. */
static Term *control_data(Model *m, const Step *st)
{
    char digits[24];
    int n = strcmp(st->item, "timer") == 0 ? snprintf(digits, sizeof digits, "%lld", st->timeout) : 0;
    return term_bin(m->a, (size_t)n, (const unsigned char *)digits);
}

/* The operation number tcs_drv's control callback takes for item. */
static int control_op(const char *item)
{
    return strcmp(item, "busy") == 0 ? 1 : strcmp(item, "not_busy") == 0 ? 2 : 3;
}

/* The control call's own events (PORTS-DRIVER-CONTROL): the request received as
 * {Pid, {control, {Op, Data}}} and the reply sent back as {Port, {control, Reply}}, which the
 * caller gets as the call's value, not as a message (C-185). */
typedef struct ControlCall { const Step *st; int p; } ControlCall;

static bool control_events(Model *m, int x, const void *arg)
{
    const ControlCall *c = arg;
    Term *req = pair(m, term_int(m->a, control_op(c->st->item)), control_data(m, c->st));
    Term *msg = pair(m, model_pid(m, c->p), pair(m, term_atom(m->a, "control"), req));
    if (!msgtrace_event(m, c->st, x, "receive", msg, model_pid(m, c->p), "EV-RECEIVE PORTS-DRIVER-CONTROL"))
        return false;
    Term *reply = pair(m, model_id(m, x), pair(m, term_atom(m->a, "control"), term_bin(m->a, 0, NULL)));
    return msgtrace_event(m, c->st, x, "send", reply, model_pid(m, c->p), "EV-SEND PORTS-DRIVER-CONTROL");
}

/* The control call as any port operation (PORT-OP-TASK-OR-IMMEDIATE, C-230): io.c erts_port_control
 * tries an immediate call (in/out control), else queues it as a port task whose reply, the
 * driver's answer (<<>>: tcs_drv's control callback answers nothing), erlang:port_control/3
 * waits for. */
static bool control_call(Model *m, int p, int x, const Step *st)
{
    ControlCall call = {st, p};
    PortOp op = {"control", true, control_events, &call, st, p, term_bin(m->a, 0, NULL), "port_control", 3, NULL};
    return ports_operation(m, x, &op);
}

/* PORTS-DRIVER-RESUME: clearing the busy state resumes the suspended process, whose command
 * then runs as any other (after the control call that cleared it): it is scheduled in where it
 * yielded (RUN-SUSPENDED-BUSY-PORT) and retries its port_command/2, which returns as that BIF
 * does (RUN-WAIT-PORT-SIGNALS); run at once, the command has it scheduled out and in there
 * again, in the port's context, when it is traced for running_procs (RUN-PROCS-PORT-CONTEXT). */
static bool resume(Model *m, int x, const Step *st)
{
    int q = m->procs[x].suspended - 1;
    m->procs[x].suspended = 0;
    if (q < 0)
        return true;
    Term *mfa = sched_suspended_mfa(m, q);
    m->procs[q].suspended = 0;
    control_decided(m, "PORTS-DRIVER-RESUME");
    (void)windows_sync(m, q); /* RUN-BLOCKED-SIGNALS: the resumption closes its window, never refuses */
    tracepoint_event(m, q, "in", mfa, NULL, "RUN-FLAGS RUN-SUSPENDED-BUSY-PORT");
    if (m->procs[q].pending_send) /* PORTS-DRIVER-BUSY-SEND: the retried send is traced again */
        return ports_send_traced(m, st, q, x, m->procs[q].pending) &&
               ports_run_command(m, st, q, x, m->procs[q].pending, false, mfa);
    unsigned w;
    if (!ports_bif_window(m, q, &w))
        return false;
    bool ok = ports_run_command(m, st, q, x, m->procs[q].pending, true, mfa);
    races_close(m, RACE_WAIT_PORT_SIGNALS, w);
    return ok;
}

/* PORTS-DRIVER-TIMEOUT: the driver's timer fires in a task of its own (scheduled in and out
 * with 0, PORTS-RUNNING-ZERO): the port receives the atom timeout, and tcs_drv's timeout
 * callback sends {Port, {data, <<"timeout">>}} to the owner. */
static bool timeout(Model *m, int x, const Step *st)
{
    m->procs[x].timer_firing = true; /* PORTS-TIMEOUT-CALLBACKS */
    bool traced = msgtrace_event(m, st, x, "receive", term_atom(m->a, "timeout"), NULL,
                                 "EV-RECEIVE PORTS-DRIVER-TIMEOUT PORTS-TIMEOUT-CALLBACKS");
    m->procs[x].timer_firing = false;
    if (!traced)
        return false;
    static const unsigned char text[] = "timeout";
    return ports_output(m, st, x, term_bin(m->a, sizeof text - 1, text), "EV-SEND PORTS-DRIVER-TIMEOUT");
}

static bool control_step(Model *m, int p, const Step *st)
{
    int x = ports_named(m, st);
    if (x < 0)
        return false;
    bool gives_data = strcmp(st->item, "busy") != 0; /* a timeout, or a resumed command's echo */
    if (gives_data && m->procs[m->procs[x].owner].blocked)
        return model_unsupported(m, st->line, st->col, "a driver port's output while its owner is blocked is");
    if (!control_call(m, p, x, st))
        return false;
    if (strcmp(st->item, "busy") == 0) {
        m->procs[x].busy = true; /* set_busy_port(Port, 1) */
        return true;
    }
    if (strcmp(st->item, "not_busy") == 0) {
        m->procs[x].busy = false; /* set_busy_port(Port, 0) */
        return resume(m, x, st);
    }
    return timeout(m, x, st);
}

bool drvports_control(Model *m, int p, const Step *st)
{
    return ports_in_bif(m, p, st, control_step);
}

bool drvports_consistent(Model *m)
{
    const Step *st = m->step;
    for (int q = 0; q < m->nprocs; q++) {
        const Proc *qp = &m->procs[q];
        if (qp->is_port || !qp->suspended)
            continue;
        if (!qp->alive)
            return model_unsupported(m, st->line, st->col,
                                     "an exit signal that ends a process suspended on a busy port is");
        if (!m->procs[qp->suspended - 1].alive)
            return model_unsupported(m, st->line, st->col,
                                     "closing a driver port while a process is suspended sending to it is");
    }
    return true;
}
