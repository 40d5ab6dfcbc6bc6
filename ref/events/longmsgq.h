/* longmsgq.h - the long_message_queue monitor of trace sessions (OTP 28+, SYSMON-LONG-MSGQ). */
#ifndef TCS_LONGMSGQ_H
#define TCS_LONGMSGQ_H
#include "model.h"

/* Guarantees: after p's queue grew, {monitor,<p>,long_message_queue,true} to the tracer of each
 * session whose Enable the queue has reached and which has not said true of p since its last
 * false. */
void longmsgq_grew(Model *m, int p);
/* Guarantees: after p's queue shrank, {monitor,<p>,long_message_queue,false} to the tracer of
 * each session that said true of p and whose Disable the queue has fallen to. */
void longmsgq_shrank(Model *m, int p);

#endif
