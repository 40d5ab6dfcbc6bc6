/* enabled.h - the enabled protocol: what a tracer answers, its lines (CONFORMANCE.md
 * section 2, "The enabled protocol"). */
#ifndef TCS_ENABLED_H
#define TCS_ENABLED_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: session s's tracer, with its state. */
Tracer enabled_session_tracer(const Model *m, int s);
/* Guarantees: the tracer of session s on process proc: the session's, with the state proc's
 * tracer was given if the step named one (TRACER-OPTION). */
Tracer enabled_proc_tracer(const Model *m, int s, int proc);
/* Guarantees: what the tracer answers to enabled*(tag, ...) (EV-EXAMPLE-TRACER,
 * STATUS-DEAD-STATE). */
Answer enabled_answer(Tracer t, const char *tag);
/* Guarantees: the informative trace_status probe line of session s when tracing starts on
 * proc; returns its answer. A tracer process is not probed: no line, trace. */
Answer enabled_probe(Model *m, int s, int proc);
/* Guarantees: the same probe line for a given tracer and state (the meta tracer), citing
 * remove_rule when the answer is remove; proc < 0 prints the tracee as undefined. */
Answer enabled_probe_as(Model *m, Tracer tracer, int proc, const char *remove_rule);
/* Guarantees: true iff the tracepoint is live in session s: proc alive, the session's
 * tracer attached, with the category's flag. */
bool enabled_live(const Model *m, int s, int proc, const char *tag);
/* Guarantees: the enabled*(tag) line of session s for a live tracepoint; true iff it
 * answered trace; discard emits nothing more; remove at a send or call tracepoint also
 * detaches the session's tracer (ENABLED-REMOVE-EVENT). */
bool enabled_consult(Model *m, int s, int proc, const char *tag, const char *ev_rules);
/* Guarantees: the enabled*(tag) line of a given tracer and state, citing remove_rule when
 * the answer is remove; its answer (no detaching). */
Answer enabled_ask(Model *m, Tracer tracer, int proc, const char *tag, const char *ev_rules,
                   const char *remove_rule);
/* Guarantees: the enabled(seq_trace, ...) line of the legacy session's tracer for process p
 * (SEQ-ENABLED: enabled/3, never enabled_X); true iff it answered trace. */
bool enabled_seq_trace(Model *m, int p, const char *rules);
/* Guarantees: the same line for a harness process that no Proc stands for, printed <name>
 * (a session's tracer state process: SEQ-TRACER-REPORT-RECEIPT); true iff it answered trace. */
bool enabled_seq_trace_named(Model *m, const char *name, const char *rules);
/* Guarantees: the enabled(seq_trace, ...) line of the legacy session's tracer about no process
 * (tracee undefined: a transfer the runtime reports without its process, DIST-SEQ-EXIT), if it
 * has one; true iff the tracer traces it. */
bool enabled_seq_trace_no_process(Model *m, const char *rules);

#endif
