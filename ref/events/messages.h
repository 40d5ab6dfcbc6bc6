/* messages.h - send and receive (EV-SEND, EV-RECEIVE). */
#ifndef TCS_MESSAGES_H
#define TCS_MESSAGES_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: msg from sender (carrying token, or NULL) reaches p: its 'receive' event through
 * the session's pattern (rules name why), then p's mailbox; a blocked p wakes and takes it.
 * False with err set if the pattern cannot be modelled. */
bool messages_deliver(Model *m, int p, Term *msg, const Term *sender, const SeqToken *token,
                      const char *rules);
/* Guarantees: as messages_deliver, for a p already scheduled in to handle the signal that
 * carries msg (woken: it was blocked, and running_wake ran); a woken p takes msg. */
bool messages_deliver_woken(Model *m, int p, bool woken, Term *msg, const Term *sender, const SeqToken *token,
                            const char *rules);
/* Guarantees: the lines and mailbox effect of `P send Q T`. */
bool messages_send(Model *m, int p, const Step *st);
/* Guarantees: the lines and mailbox effect of `P send_name N T` (N ! T): the send names N;
 * badarg when no process has the name (SEND-NAME). */
bool messages_send_name(Model *m, int p, const Step *st);
/* Guarantees: the lines and mailbox effect of `P recv [after N]`. */
bool messages_recv(Model *m, int p, const Step *st);

#endif
