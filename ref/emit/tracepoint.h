/* tracepoint.h - one tracepoint across the sessions: the enabled line, then the trace line
 * (CONFORMANCE.md section 2, "The enabled protocol" and "Callback dispatch"). */
#ifndef TCS_TRACEPOINT_H
#define TCS_TRACEPOINT_H
#include <stdbool.h>

#include "model.h"

/* An event at a tracepoint of a process. */
typedef struct Event {
    const char *tag;
    const Term *term;
    const Term *extra;     /* NULL when the trace tuple has no fifth element */
    const Term *ms_result; /* NULL unless a match spec gave a non-true result */
    const char *rules;     /* the EV-... rule IDs of this event */
} Event;

/* Guarantees: the trace*(tag, ...) line of session s (and the msg line of the example
 * tracer) for a tracepoint already accepted; extra_rules name why (ENABLED-TRACE or
 * ENABLED-RETURN-FROM); a process tracer's msg line (SESSION-PROCESS-TRACER). */
void tracepoint_emit(Model *m, int s, int proc, const Event *ev, const char *extra_rules);
/* Guarantees: the same for a given tracer, state and process flags (the meta tracer). */
void tracepoint_emit_as(Model *m, Tracer tracer, FlagSet flags, FlagSet ts_cleared, int proc,
                        const Event *ev, const char *extra_rules);
/* Guarantees: the full tracepoint for every session, in SESSION-ORDER-PROCESS order: if live
 * for the session, its enabled line, then its trace line if answered trace (a process
 * tracer: its message line). */
void tracepoint_fire(Model *m, int proc, const Event *ev);
/* Guarantees: tracepoint_fire for the sessions whose flags for proc hold every flag of needed
 * only; the other sessions see no line of it. */
void tracepoint_fire_flagged(Model *m, int proc, const Event *ev, FlagSet needed);
/* Guarantees: of the tracepoint of ev for every session, the enabled line, and no trace line or
 * message: what a tracer can report of a tracepoint reached on a dirty scheduler by an exiting
 * process, whose trace callback's enif_send is refused (RUN-KILLED-DIRTY-OUT). */
void tracepoint_fire_unreported(Model *m, int proc, const Event *ev);
/* Guarantees: true iff session s goes on to trace the live tracepoint tag: a process tracer
 * always (no callback); a tracer module when enabled_consult answers trace. */
bool tracepoint_accept(Model *m, int s, int proc, const char *tag, const char *ev_rules);
/* Guarantees: tracepoint_fire of the event {tag, term, extra} without match spec result. */
void tracepoint_event(Model *m, int proc, const char *tag, const Term *term, const Term *extra,
                      const char *rules);
/* Guarantees: ev_rules plus the session rule of a line of session s (SESSION-LEGACY or
 * SESSION-ISOLATION) when the scenario declares sessions, plus order_rule when nsessions
 * sessions see the tracepoint. */
const char *tracepoint_rules(Model *m, int s, int nsessions, const char *ev_rules, const char *order_rule);
/* Guarantees: the trace(seq_trace, State, Label, {Type, {Previous, Current}, From, To, Msg},
 * Opts) line of the system seq tracer for one transfer with token tok (SEQ-TRACE). */
void tracepoint_seq_trace(Model *m, const SeqToken *tok, const char *type, Term *to, const Term *msg,
                          const char *rules);
/* Guarantees: the msg(<T>, {seq_trace, Label, {Type, {Previous, Current}, From, To, Msg}}) line of
 * tracer T, the peer node's system seq tracer, for one transfer of a process there with token tok
 * (DIST-SEQ-TRACER). */
void tracepoint_peer_seq_trace(Model *m, const Term *tracer, const SeqToken *tok, const char *type, Term *to,
                               const Term *msg, const char *rules);

#endif
