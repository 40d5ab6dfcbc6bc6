/* ports.h - ports: open, commands, echo, close, port links and names (PORTS-*). */
#ifndef TCS_PORTS_H
#define TCS_PORTS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of `P open_port X`: X becomes a new port owned by P. */
bool ports_open(Model *m, int p, const Step *st);
/* Guarantees: the lines of `P port_command X T` (via_send false) or `P port_send X T`. */
bool ports_command(Model *m, int p, const Step *st, bool via_send);
/* Guarantees: the lines of port x running the command Data of process p (already sent):
 * in/out command around its receive, and the echo (PORTS-ECHO). */
bool ports_run_command(Model *m, const Step *st, int p, int x, const Term *data);
/* Guarantees: the lines of port x sending {Port, {data, Bytes}} to its owner, which receives
 * it; the send line cites rules. */
bool ports_output(Model *m, const Step *st, int x, const Term *bytes, const char *rules);
/* Guarantees: the line of port x scheduled in or out (tag) to run command (PORTS-RUNNING). */
void ports_sched(Model *m, int x, const char *tag, const char *command);
/* Guarantees: the lines of step, a port BIF called by p, inside the allowance window of such a
 * call (RUN-WAIT-PORT-SIGNALS: it may return through erlang:bif_handle_signals_return/2 and
 * wait there). */
bool ports_in_bif(Model *m, int p, const Step *st, bool (*step)(Model *, int, const Step *));
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
