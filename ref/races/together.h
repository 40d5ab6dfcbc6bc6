/* together.h - steps of several processes at once: a `together ... end` block (cases/README.md
 * "Steps together"; PROTOCOLS.md section 6, "Together blocks"; CONFORMANCE.md BLOCK-TOGETHER*).
 * Each process of the block does its steps in order, all processes at once. The model runs the
 * steps in the order written and states in the stream which process's chain each line belongs to:
 * a group's lines of one chain come in order, the chains in any interleaving, but for the joins (a
 * process's lines after it took a message come after the lines of the message's sender up to the
 * send, in the receiver's group). It refuses a block whose lines would depend on that
 * interleaving. */
#ifndef TCS_TOGETHER_H
#define TCS_TOGETHER_H

#include "model.h"

/* Guarantees: the block opened (the line "A together wN BLOCK-TOGETHER"); false with the error set
 * when model v1 cannot state one here (a seq_trace token given, the tracer module unloaded). */
bool together_begin(Model *m, const Step *st);
/* Guarantees: before a step of the block: "A chain wN <P>" when its process differs from the last
 * step's; false with the error set when the step's lines could depend on the interleaving (its
 * process on the peer node, traced for scheduling, looping; a link of two processes another
 * process of the block links or unlinks too; a port). */
bool together_step_begin(Model *m, const Step *st);
/* Guarantees: after a step of the block, false with the error set when it opened or closed an
 * allowance window or an either-or, or changed the trace flags of a process (when the others see
 * the change is a race). */
bool together_step_end(Model *m, const Step *st);
/* Guarantees: when a step of the open block delivered a message to q (its last in q's mailbox):
 * "A sync wN K <Q>" after the step's lines so far, K kept with the message; false with the error
 * set when q takes messages in the block and they come from two processes (which comes first is a
 * race). Nothing outside a block. */
bool together_delivered(Model *m, int q, bool taken);
/* Guarantees: when p, in a step of the open block, took a message a step of this block sent:
 * "A join wN K <P>" (its lines after it come after the sender's up to the sync K, in p's group);
 * false with the error set when p's messages in the block come from two processes. Nothing
 * outside a block. */
bool together_received(Model *m, int p, unsigned sync);
/* Guarantees: true when process p may set a pattern on target (its text) in the open block, the call
 * (its text) kept for together_end: no process is traced for call (which of its calls a pattern
 * changed under it would be traced is a race); false with the error set otherwise. True outside a
 * block. */
bool together_pattern(Model *m, int p, const char *target, const char *call);
/* Guarantees: the block closed: "A apart wN", then the ctl lines of its steps in the order written
 * (the harness writes them once every process is done); false with the error set (the block closed
 * all the same) when two processes' last pattern steps on one function differ: which is set last
 * is a race, and it stays. */
bool together_end(Model *m, const Step *st);
/* Guarantees: a block still open (the run ended in it: a refusal, the node's crash) closed, its
 * held lines' memory released; nothing when none is open. */
void together_abandon(Model *m);

#endif
