/* ports.h - ports: open, commands, echo, close, port links and names (PORTS-*). */
#ifndef TCS_PORTS_H
#define TCS_PORTS_H
#include <stdbool.h>

#include "model.h"
#include "portop.h"

/* Guarantees: the lines of `P open_port X`: X becomes a new port owned by P. */
bool ports_open(Model *m, int p, const Step *st);
/* Guarantees: the lines of `P port_command X T` (via_send false) or `P port_send X T`. */
bool ports_command(Model *m, int p, const Step *st, bool via_send);
/* Guarantees: the lines of port x running the command Data of process p (already sent):
 * in/out command around its receive, and the echo (PORTS-ECHO); bif: p called port_command/2,
 * whose wrapper waits for the reply of a command queued as a task (PORT-OP-TASK-REPLY); p's
 * scheduling in the port's context at resumed_at, the BIF a busy port suspended it in (NULL:
 * a step's command, where it is the harness's, RUN-PROCS-PORT-CONTEXT). */
bool ports_run_command(Model *m, const Step *st, int p, int x, const Term *data, bool bif, const Term *resumed_at);
/* Guarantees: the send line of p's Port ! {P, {command, Data}} to port x (PORTS-SEND-TO-PORT);
 * false with err set where model v1 refuses it. */
bool ports_send_traced(Model *m, const Step *st, int p, int x, const Term *data);
/* A port operation (PORT-OP-TASK-OR-IMMEDIATE): its name, whether the port is scheduled out after
 * it (not after a close, C-67), its own events (events(m, x, arg)); for a BIF whose erlang wrapper
 * erlang:WRAPPER/ARITY waits for the reply of an operation queued as a port task, the step, the
 * calling process, and the reply (NULL: no reply, PORT-OP-TASK-REPLY); where the calling
 * process's scheduling in the port's context names it (caller_at; NULL: the harness's,
 * RUN-PROCS-PORT-CONTEXT). */
typedef struct PortOp {
    const char *name;
    bool scheduled_out;
    PortOpPart events;
    const void *arg;
    const Step *st;
    int caller;
    const Term *reply;
    const char *wrapper;
    int arity;
    const Term *caller_at;
} PortOp;
/* Guarantees: the lines of operation op on port x as an either-or of an immediate call and a port
 * task (PORT-OP-TASK-OR-IMMEDIATE), the caller's wait for a task's reply in a window
 * (RUN-WAIT-PORT-OP-REPLY); false with err set where model v1 refuses the operation's events. */
bool ports_operation(Model *m, int x, const PortOp *op);
/* Guarantees: the lines of port x sending {Port, {data, Bytes}} to its owner, which receives
 * it; the send line cites rules. */
bool ports_output(Model *m, const Step *st, int x, const Term *bytes, const char *rules);
/* Guarantees: the line of port x scheduled in or out (tag) to run command (PORTS-RUNNING). */
void ports_sched(Model *m, int x, const char *tag, const char *command);
/* Guarantees: the lines of step, a port BIF called by p, inside the allowance window of such a
 * call (RUN-WAIT-PORT-SIGNALS: it may return through erlang:bif_handle_signals_return/2 and
 * wait there). */
bool ports_in_bif(Model *m, int p, const Step *st, bool (*step)(Model *, int, const Step *));
/* Guarantees: when p is traced for running, the window of a port BIF's wait for signals in p's
 * queue before it returns (RUN-WAIT-PORT-SIGNALS), its id in *id (0: none); false with err set
 * when a tracer would answer remove to it. Close it with races_close. */
bool ports_bif_window(Model *m, int p, unsigned *id);
/* Guarantees: the port a port step names, or -1 with err set if it is closed. */
int ports_named(Model *m, const Step *st);
/* Guarantees: the lines of `P port_close X`. */
bool ports_close(Model *m, int p, const Step *st);
/* Guarantees: the lines of port x closing with reason (closed, then unregister if named),
 * its links undone; returns the processes it was linked to (*n of them), for the caller
 * (procs_terminate) to signal. */
int *ports_closed(Model *m, int x, const Term *reason, const char *rules, int *n);
/* Guarantees: the lines of `P link X` (link true) or `P unlink X` for a port X, already
 * (un)linked. */
bool ports_link(Model *m, int p, int x, bool link);
/* Guarantees: the lines of port x getting the exit signal of linked process p (already
 * unlinked); *closes tells whether the port closes (then with reason); false with err set
 * if the model cannot run the port's receive. */
bool ports_exit_signal(Model *m, int x, int p, const Term *reason, bool *closes);

#endif
