/* sched.h - whether and where a process's scheduling is traced: the queries the scheduling
 * lines (ref/events/running.c) and the runtime's races (ref/races/) both need (RUN-*). */
#ifndef TCS_SCHED_H
#define TCS_SCHED_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: true iff some session traces the scheduling (running, running_procs) of p. */
bool sched_traced(const Model *m, int p);
/* Guarantees: where a blocked process waits: {tcs_puppet,block,0} (driver/runner/tcs_puppet.erl). */
Term *sched_block_mfa(Model *m);
/* Guarantees: where process p, suspended on a busy port, waits and is resumed: the BIF that
 * yielded, {erts_internal,port_command,3}, or {erlang,send,2} for a ! (RUN-SUSPENDED-BUSY-PORT). */
Term *sched_suspended_mfa(Model *m, int p);
/* Guarantees: the line of process p scheduled tag (out, or in) at mfa around a port operation
 * it runs at once, in the port's context, for each session that traces p for running_procs;
 * none for running alone (RUN-PROCS-PORT-CONTEXT). */
void sched_port_context(Model *m, int p, const char *tag, const Term *mfa);

#endif
