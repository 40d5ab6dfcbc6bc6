/* msgpatterns.h - erlang:trace_pattern(send | 'receive', ...) from the harness (MSGPAT-*). */
#ifndef TCS_MSGPATTERNS_H
#define TCS_MSGPATTERNS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl line of `pattern send|'receive' MS OPT...`. */
bool msgpatterns_step(Model *m, const Step *st);
/* Guarantees: the effect of the send (send) or receive pattern MS of step st on session s,
 * its result ("-> 1" or "raises error:badarg") and its rules appended to rules. */
const char *msgpatterns_set(Model *m, int s, bool send, const Step *st, Buf *rules);

#endif
