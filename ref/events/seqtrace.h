/* seqtrace.h - sequential tracing: tokens and what they trace (SEQ-*). */
#ifndef TCS_SEQTRACE_H
#define TCS_SEQTRACE_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: seq_trace:set_token(key, value) done by p: a process without a token starts one,
 * flags off, label 0, serial 0 (SEQ-TOKEN); value as set_token/2 takes it for key. */
void seqtrace_set_component(Model *m, int p, const char *key, const Term *value);
/* Guarantees: p's token as erts holds it, {Flags, Label, Serial, From, LastCnt}, or NULL with
 * *stated true when p holds none; NULL with *stated false for a token with a time stamp flag,
 * whose flag bits the model does not state. */
Term *seqtrace_token_form(Model *m, int p, bool *stated);
/* Guarantees: the effect of `P seq_token K V` / `P seq_reset`, and the lines of `P seq_print T`. */
bool seqtrace_step(Model *m, int p, const Step *st);
/* Guarantees: the seq_trace lines of p sending msg to q; the token the message carries. */
const SeqToken *seqtrace_send(Model *m, int p, int q, const Term *msg);
/* Guarantees: the seq_trace lines of dying process p sending its link exit signal with reason
 * to process q (SEQ-EXIT-SIGNAL); the token the signal carries (NULL: p holds none). */
const SeqToken *seqtrace_exit_signal(Model *m, int p, int q, const Term *reason);
/* Guarantees: the seq_trace lines of process q, not trapping exits, killed by a dying token
 * holder's exit signal (SEQ-EXIT-SIGNAL); false (refused) when q has other links or monitors. */
bool seqtrace_exit_received(Model *m, int q);
/* Guarantees: a token holder's exit signal that q (not trapping exits) ignores, a normal one, asks
 * the seq tracer about q and traces nothing (SEQ-EXIT-SIGNAL, C-520). */
void seqtrace_exit_ignored(Model *m, int q);
/* Guarantees: what a message the runtime queues (a port's data) carries for a token: its
 * receipt leaves the receiver's token (SEQ-RECEIVE-RUNTIME). */
const SeqToken *seqtrace_runtime_token(void);
/* Guarantees: what a 'DOWN' message with this reason carries for a token: as
 * seqtrace_runtime_token for an immediate reason; else the same but for OTP 25, where its
 * receipt clears the receiver's token (C-360). */
const SeqToken *seqtrace_down_token(const Term *reason);
/* Guarantees: p takes over the token of a received message (NULL clears it; the markers above
 * leave it, or clear it on the release C-360 names); its lines. */
void seqtrace_receive(Model *m, int p, const Message *msg);
/* Guarantees: false iff p holds a token and the step kind passes it on in a way the model
 * leaves out (spawn, spawn_link, link, unlink, exit, kill, the port steps: steps.h's TOKEN). */
bool seqtrace_allows(const Model *m, int p, StepKind kind);
/* Guarantees: false iff p holds a token with the send or 'receive' flag and there is a system
 * seq tracer: a report of the tracer from p's context, or its receipt by the recorder's process,
 * would be traced, and its message is the tracer's own (C-65), which the model cannot print. */
bool seqtrace_report_printable(const Model *m, int p);
/* Guarantees: the lines and serial of the message a recorder's trace callback sends from p's
 * context, when p holds a token: one send transfer of p (SEQ-TRACER-REPORT, C-65); with
 * receiver (the name of the harness process the report goes to, NULL when it is the harness's
 * collector, which the recorder never reports about) also its receipt there, one receive
 * transfer (SEQ-TRACER-REPORT-RECEIPT, C-410). */
void seqtrace_tracer_report(Model *m, int p, const char *receiver);
/* Guarantees: false iff a live process holds a token and is traced by a tracer module: its
 * trace callbacks would pass the token on with the tracer's own messages (C-65), which the
 * model leaves out; a tracer process's messages carry none. */
bool seqtrace_holders_untraced(const Model *m);

#endif
