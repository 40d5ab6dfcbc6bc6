/* ports.c - the scenario's ports: open, commands and their echo, close, exit signals
 * (CONFORMANCE.md section 2, "Ports").  Every port runs `cat` opened with
 * [binary, {packet, 2}], so each command comes back whole, as one message to the port's
 * owner (the process that opened it), or the suite's driver tcs_drv, whose own steps are in
 * ref/events/drvports.c. */
#include "drvports.h"
#include "messages.h"
#include "msgtrace.h"
#include "order.h"
#include "portop.h"
#include "control.h"
#include "ports.h"
#include "procs.h"
#include "races.h"
#include "seqtrace.h"
#include "tracepoint.h"
#include "windows.h"

static Term *pair(Model *m, Term *a, Term *b) { return term_tuple3(m->a, a, b, NULL); }

void ports_sched(Model *m, int x, const char *tag, const char *command)
{
    tracepoint_event(m, x, tag, term_atom(m->a, command), NULL, "PORTS-RUNNING");
}

/* PORT-OP-TASK-REPLY: a port BIF whose operation was queued as a port task returns a reference,
 * and its erlang wrapper waits for {Ref, Reply}, which the task sends the caller once the
 * operation has run (io.c erts_schedule_proc2port_signal, port_sched_op_reply); the caller's
 * receive of it, in the task alternative only. */
static bool port_op_reply(Model *m, int x, const void *arg)
{
    const PortOp *op = arg;
    if (!op->reply)
        return true;
    Term *reply = pair(m, term_placeholder(m->a, "_Ref"), (Term *)op->reply);
    return msgtrace_event(m, op->st, op->caller, "receive", reply, model_id(m, x), "EV-RECEIVE PORT-OP-TASK-REPLY");
}

/* RUN-WAIT-PORT-OP-REPLY: the wait of the caller of a port BIF in its erlang wrapper (mfa) for
 * that reply, when the operation is queued as a task and the reply has not come yet: a window. */
static bool port_op_wait(Model *m, const PortOp *op, unsigned *w)
{
    *w = 0;
    if (!op->reply)
        return true;
    Term *mfa = term_tuple3(m->a, term_atom(m->a, "erlang"), term_atom(m->a, op->wrapper), term_int(m->a, op->arity));
    return windows_wait(m, op->caller, mfa, RACE_WAIT_PORT_OP_REPLY, w);
}

bool ports_operation(Model *m, int x, const PortOp *op)
{
    /* PORT-OP-TASK-OR-IMMEDIATE: a port operation (command, close, link, unlink, control) is run
     * by the calling process as an immediate call when it can take the port's lock and the port
     * has no task queued (io.c try_imm_drv_call: in, and finalize_imm_drv_call: out, named by the
     * operation; a close has no out, C-67), else it is queued and run as a port task
     * (erl_port_task.c erts_port_task_execute: in and out with 0), after which a BIF's caller gets
     * its reply (PORT-OP-TASK-REPLY). Which one is a race no step controls: the lines are an
     * either-or of the two (one alternative only when they are the same, portop_either). */
    unsigned w;
    if (!port_op_wait(m, op, &w))
        return false;
    PortOpRace race = {op->name, op->scheduled_out, op->events, op->arg, port_op_reply, op, op->caller, op->caller_at};
    bool ok = portop_either(m, x, &race);
    races_close(m, RACE_WAIT_PORT_OP_REPLY, w);
    return ok;
}

/* A port operation whose own event is the port receiving a message. */
typedef struct PortReceive { const Step *st; Term *msg; int from; const char *rules; } PortReceive;

static bool port_receive(Model *m, int x, const void *arg)
{
    const PortReceive *r = arg;
    return msgtrace_event(m, r->st, x, "receive", r->msg, model_pid(m, r->from), r->rules);
}

/* A port operation whose own event is the port getting linked (link) or unlinked by process p. */
typedef struct PortLink { int p; bool link; } PortLink;

static bool port_getting_linked(Model *m, int x, const void *arg)
{
    const PortLink *l = arg;
    tracepoint_event(m, x, l->link ? "getting_linked" : "getting_unlinked", model_pid(m, l->p), NULL,
                     "EV-LINK PORTS-LINK");
    return true;
}

int ports_named(Model *m, const Step *st)
{
    int x = model_proc(m, st->other);
    if (!m->procs[x].alive)
        return model_unsupported(m, st->line, st->other_col, "a step on a closed port is"), -1;
    return x;
}

bool ports_open(Model *m, int p, const Step *st)
{
    int x = model_add_proc(m, st->other);
    Proc *xp = &m->procs[x];
    xp->is_port = true;
    xp->owner = p;
    xp->driver = st->driver;
    /* RUN-WAIT-OPEN-PORT: erlang:open_port/2 waits in a receive for the port's {Ref, Port}, and
     * may be scheduled out and in there any number of times (C-700); a linked-in driver's port is
     * opened at once, no reply comes (PORTS-DRIVER-OPEN) */
    unsigned w = 0;
    if (!st->driver &&
        !windows_wait(m, p, term_tuple3(m->a, term_atom(m->a, "erlang"), term_atom(m->a, "open_port"), term_int(m->a, 2)),
                      RACE_WAIT_OPEN_PORT, &w))
        return false;
    for (int s = 0; s < m->nsessions; s++) { /* PORTS-NEW; PROCS-NEW-READ: the open reads them */
        model_read_new_defaults(m, s, true);
        xp->trace[s] = m->sessions[s].new_ports;
    }
    /* SESSION-ORDER-NEW (C-405): the port sees its sessions in the order they were created, the
     * legacy session last, not in the order their defaults were set */
    order_place_defaults(m, xp->trace, NULL);
    /* PORTS-OPEN: {trace, Port, open, Pid, Driver}; the driver of {spawn, "cat"} is cat, that
     * of {spawn_driver, "tcs_drv"} tcs_drv (PORTS-DRIVER-OPEN) */
    tracepoint_event(m, x, "open", model_pid(m, p), term_atom(m->a, st->driver ? "tcs_drv" : "cat"),
                     st->driver ? "PORTS-OPEN PORTS-DRIVER-OPEN" : "PORTS-OPEN");
    ports_sched(m, x, "in", "open");
    ports_sched(m, x, "out", "open");
    procs_set_link(m, p, x, true); /* PORTS-OPEN-LINK: the owner is linked to its port */
    tracepoint_event(m, p, "link", model_id(m, x), NULL, "EV-LINK PORTS-OPEN-LINK");
    tracepoint_event(m, x, "getting_linked", model_pid(m, p), NULL, "EV-LINK PORTS-OPEN-LINK");
    if (st->driver)
        return true;
    /* PORTS-OPEN-REPLY: open_port/2 receives the new port in a message {Ref, Port} */
    Term *reply = pair(m, term_placeholder(m->a, "_Ref"), model_id(m, x));
    bool ok = msgtrace_event(m, st, p, "receive", reply, model_id(m, x), "EV-RECEIVE PORTS-OPEN-REPLY");
    races_close(m, RACE_WAIT_OPEN_PORT, w);
    return ok;
}

/* RUN-WAIT-PORT-SIGNALS: a port BIF (erl_bif_port.c) called with signals in the caller's queue
 * returns through erlang:bif_handle_signals_return/2, which may wait for them; its window. */
bool ports_bif_window(Model *m, int p, unsigned *id)
{
    Term *mfa = term_tuple3(m->a, term_atom(m->a, "erlang"), term_atom(m->a, "bif_handle_signals_return"),
                            term_int(m->a, 2));
    return windows_wait(m, p, mfa, RACE_WAIT_PORT_SIGNALS, id);
}

bool ports_send_traced(Model *m, const Step *st, int p, int x, const Term *data)
{
    Term *cmd = pair(m, model_pid(m, p), pair(m, term_atom(m->a, "command"), (Term *)data));
    return msgtrace_event(m, st, p, "send", cmd, model_id(m, x), "EV-SEND PORTS-SEND-TO-PORT");
}

static bool command_step(Model *m, int p, const Step *st, bool via_send)
{
    int x = ports_named(m, st);
    if (x < 0)
        return false;
    int owner = m->procs[x].owner;
    if (via_send && p != owner)
        return model_unsupported(m, st->line, st->col, "port_send by a process other than the port's owner is");
    if (m->procs[owner].blocked)
        return model_unsupported(m, st->line, st->col, "a port command while the port's owner is blocked is");
    /* PORTS-SEND-TO-PORT: Port ! {Pid, {command, Data}} is a send of Pid, traced before the port
     * is asked (also when it is busy: PORTS-DRIVER-BUSY-SEND) */
    if (via_send && !ports_send_traced(m, st, p, x, st->term))
        return false;
    if (!via_send) /* port_command/2 is not a send of the caller */
        control_decided(m, "PORTS-COMMAND-NOT-SEND");
    if (m->procs[x].busy)
        return drvports_suspend(m, p, x, st, via_send);
    return ports_run_command(m, st, p, x, st->term, !via_send, NULL);
}

/* A command's own events: the port receives it, however it was sent (PORTS-RECEIVE-COMMAND), and
 * the suite's driver echoes it from inside its command callback (PORTS-DRIVER-ECHO); cat's echo
 * comes back later, in a task of its own (PORTS-RUNNING-ZERO). */
typedef struct PortCommand { const Step *st; Term *cmd; int from; const Term *data; } PortCommand;

static bool port_command_events(Model *m, int x, const void *arg)
{
    const PortCommand *c = arg;
    if (!msgtrace_event(m, c->st, x, "receive", c->cmd, model_pid(m, c->from), "EV-RECEIVE PORTS-RECEIVE-COMMAND"))
        return false;
    return !m->procs[x].driver || ports_output(m, c->st, x, c->data, "EV-SEND PORTS-ECHO PORTS-DRIVER-ECHO");
}

bool ports_run_command(Model *m, const Step *st, int p, int x, const Term *data, bool bif, const Term *resumed_at)
{
    PortCommand command = {st, pair(m, model_pid(m, p), pair(m, term_atom(m->a, "command"), (Term *)data)), p, data};
    /* erlang:port_command/2 gets true for a queued command (io.c port_sig_output) */
    PortOp op = {"command", true, port_command_events, &command, st, p, bif ? term_atom(m->a, "true") : NULL,
                 "port_command", 2, resumed_at};
    if (!ports_operation(m, x, &op))
        return false;
    return m->procs[x].driver || ports_output(m, st, x, data, "EV-SEND PORTS-ECHO");
}

bool ports_output(Model *m, const Step *st, int x, const Term *bytes, const char *rules)
{
    /* PORTS-ECHO: the port sends {Port, {data, Data}} to its owner */
    int owner = m->procs[x].owner;
    Term *data = pair(m, model_id(m, x), pair(m, term_atom(m->a, "data"), (Term *)bytes));
    return msgtrace_event(m, st, x, "send", data, model_pid(m, owner), rules) &&
           messages_deliver(m, owner, data, model_id(m, x), seqtrace_runtime_token(), "EV-RECEIVE PORTS-ECHO");
}

bool ports_command(Model *m, int p, const Step *st, bool via_send)
{
    unsigned w = 0; /* port_send is a plain send */
    if (!via_send && !ports_bif_window(m, p, &w))
        return false;
    bool ok = command_step(m, p, st, via_send);
    races_close(m, RACE_WAIT_PORT_SIGNALS, w);
    return ok;
}

static bool close_step(Model *m, int p, const Step *st)
{
    int x = ports_named(m, st);
    if (x < 0)
        return false;
    /* PORTS-CLOSE: scheduled in to close, never out; port_close/1 is received as {Pid, close} */
    PortReceive received = {st, pair(m, model_pid(m, p), term_atom(m->a, "close")), p, "EV-RECEIVE PORTS-CLOSE"};
    PortOp op = {"close", false, port_receive, &received, st, p, NULL, NULL, 0, NULL};
    if (!ports_operation(m, x, &op))
        return false;
    return procs_terminate(m, x, term_atom(m->a, "normal"), NULL, "PORTS-CLOSE");
}

bool ports_in_bif(Model *m, int p, const Step *st, bool (*step)(Model *, int, const Step *))
{
    unsigned w;
    if (!ports_bif_window(m, p, &w))
        return false;
    bool ok = step(m, p, st);
    races_close(m, RACE_WAIT_PORT_SIGNALS, w);
    return ok;
}

bool ports_close(Model *m, int p, const Step *st)
{
    return ports_in_bif(m, p, st, close_step);
}

bool ports_link(Model *m, int p, int x, bool link)
{
    const char *op = link ? "link" : "unlink";
    tracepoint_event(m, p, op, model_id(m, x), NULL, "EV-LINK PORTS-LINK");
    /* PORTS-LINK: the port is scheduled to handle the link signal (running_ports) */
    PortLink linked = {p, link};
    PortOp operation = {op, true, port_getting_linked, &linked, NULL, p, NULL, NULL, 0, NULL};
    return ports_operation(m, x, &operation);
}

int *ports_closed(Model *m, int x, const Term *reason, const char *rules, int *n)
{
    Proc *xp = &m->procs[x];
    tracepoint_event(m, x, "closed", reason, NULL, rules);
    if (xp->regname) { /* PORTS-REGISTER: a closed port loses its name */
        tracepoint_event(m, x, "unregister", term_atom(m->a, xp->regname), NULL,
                         "EV-REGISTER PORTS-REGISTER EV-EXIT-UNREGISTER");
        xp->regname = NULL;
    }
    xp->alive = false;
    int *links = model_take_links(xp, n);
    for (int i = 0; i < *n; i++)
        procs_set_link(m, x, links[i], false);
    return links;
}

bool ports_exit_signal(Model *m, int x, int p, const Term *reason, bool *closes)
{
    /* PORTS-EXIT-SIGNAL: the exit signal of a linked process is received as {Pid, close};
     * the port closes when its owner dies, or when the reason is not normal */
    if (!msgtrace_event(m, m->step, x, "receive", pair(m, model_pid(m, p), term_atom(m->a, "close")),
                        model_pid(m, p), "EV-RECEIVE PORTS-EXIT-SIGNAL"))
        return false;
    *closes = m->procs[x].owner == p || !term_is_atom(reason, "normal");
    return true;
}
