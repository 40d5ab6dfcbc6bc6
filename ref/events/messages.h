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
/* Guarantees: the same for a p already woken from its blocked receive (woken: running_wake ran
 * for this message), which completes the receive; for woken false, as for a p not blocked. */
bool messages_deliver_woken(Model *m, int p, Term *msg, const Term *sender, const SeqToken *token,
                            const char *rules, bool woken);
/* Guarantees: p, blocked in a receive with a message in its mailbox (it came while p was
 * suspended), is woken and takes the oldest (RUN-WAKE; its 'receive' event was at delivery). */
void messages_wake_blocked(Model *m, int p);
/* Guarantees: the oldest message of p's non-empty mailbox taken and handled (its seq_trace token
 * passed on), its value returned (in the arena): a receive in a traced function; in a together
 * block, its join (together_received); NULL with the error set when the block refuses it. */
Term *messages_take_value(Model *m, int p);
/* Guarantees: p's mailbox empty, the memory of the messages it held freed (an exit, the end of
 * a run). */
void messages_drop(Model *m, int p);
/* Guarantees: the lines and mailbox effect of `P send Q T`. */
bool messages_send(Model *m, int p, const Step *st);
/* Guarantees: the lines and mailbox effect of `P send_name N T` (N ! T): the send names N;
 * badarg when no process has the name (SEND-NAME). */
bool messages_send_name(Model *m, int p, const Step *st);
/* Guarantees: the lines and mailbox effect of `P recv [after N]`. */
bool messages_recv(Model *m, int p, const Step *st);
/* Guarantees: the lines and mailbox effect of `P wait MS while Q sends T` (RECV-TIMED-WAIT): Q's
 * send, P's 'receive' of T when it arrives (on the release C-490 names, after the wait's timeout),
 * then its timeout (on the releases C-760 names, an either-or of that order and the timeout's
 * first); T stays in P's mailbox. False with err set for what model v1 refuses. */
bool messages_timed_wait(Model *m, int p, const Step *st);

#endif
