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
/* Guarantees: the exit signal (from, reason) reaches q, which traps exits, as the message
 * {'EXIT', From, Reason}: its 'receive' event (rules say why), then q's mailbox. */
bool signals_trapped(Model *m, int q, const Term *from, const Term *reason, const char *rules);

#endif
