/* procs.h - spawn, link, register, exit (EV-SPAWN, EV-LINK, EV-REGISTER, EV-EXIT). */
#ifndef TCS_PROCS_H
#define TCS_PROCS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of `P spawn Q` and `P spawn_link Q`; Q becomes a new process. */
bool procs_spawn(Model *m, int p, const Step *st);
/* Guarantees: the lines of `P link Q` (link true) or `P unlink Q`. */
bool procs_link(Model *m, int p, const Step *st, bool link);
/* Guarantees: the lines of `P register N` (reg true) or `P unregister N`. */
bool procs_register(Model *m, int p, const Step *st, bool reg);
/* Guarantees: the lines of `P exit R`, including what happens to linked processes. */
bool procs_exit(Model *m, int p, const Step *st);
/* Guarantees: the lines of p terminating with reason (a process exiting by itself, or killed by
 * an exit signal whose rules are killed_by, or a port closing, port_rules its rules), then of
 * what it was linked to, depth first, however long the chain of links (no recursion); false
 * with err set if the model cannot run what a linked port or a trapping process receives. */
bool procs_terminate(Model *m, int p, const Term *reason, const char *killed_by, const char *port_rules);
/* Guarantees: true iff process p is linked to a process on the peer node (DIST-LINK). */
bool procs_linked_across(const Model *m, int p);
/* Guarantees: p and q are linked (linked true) or not, both ways, without events. */
void procs_set_link(Model *m, int p, int q, bool linked);

#endif
