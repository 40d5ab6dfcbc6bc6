/* signals.h - exit signals sent with exit/2, and trapping them (SIGNAL-*). */
#ifndef TCS_SIGNALS_H
#define TCS_SIGNALS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of `P kill Q R` (P evaluates exit(Q, R)): Q exits, or gets the message
 * {'EXIT', P, R}, or nothing happens, as SIGNAL-* say; false with err set for a case model v1
 * leaves out (Q is P). */
bool signals_kill(Model *m, int p, const Step *st);
/* Guarantees: `P trap_exit B` (process_flag(trap_exit, B)): no line; p traps exits from now on
 * (B true) or no longer. */
bool signals_trap_exit(Model *m, int p, const Step *st);
/* Guarantees: `P monitor Q` (erlang:monitor(process, Q)): no line; p is told when Q goes
 * (signals_down); a Q already gone sends its 'DOWN' with reason noproc at once. */
bool signals_monitor(Model *m, int p, const Step *st);
/* Guarantees: process q has exited with reason: each monitor of it delivers
 * {'DOWN', Ref, process, Q, Reason} to its watcher (SIGNAL-DOWN), in the order they were set. */
bool signals_down(Model *m, int q, const Term *reason);
/* Guarantees: the exit signal (from, reason) reaches q, which traps exits, as the message
 * {'EXIT', From, Reason}: its 'receive' event (rules say why), then q's mailbox. */
bool signals_trapped(Model *m, int q, const Term *from, const Term *reason, const char *rules);
/* Guarantees: the same message, queued as sent by sender (a pid, or an atom such as system for
 * a message the runtime queues itself: its 'receive' match spec sees [Sender, undefined, Msg]). */
bool signals_trapped_as(Model *m, int q, const Term *from, const Term *sender, const Term *reason,
                        const char *rules);
/* Guarantees: the exit signal (from, reason) through a link reaches q, which traps exits: the
 * link goes (getting_unlinked), then the message as signals_trapped, carrying token (NULL: none);
 * a q blocked in a receive is scheduled in first, by the signal. */
bool signals_trapped_link(Model *m, int q, const Term *from, const Term *reason, const SeqToken *token,
                          const char *rules);

#endif
