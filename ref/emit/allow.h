/* allow.h - allowance windows: the A lines of the golden stream that say what the runtime may
 * add where, a behaviour the model cannot predict (PROTOCOLS.md section 6, "Allowance windows";
 * CONFORMANCE.md section 2, "Runtime additions"). */
#ifndef TCS_ALLOW_H
#define TCS_ALLOW_H

#include "model.h"

/* What fires the tracepoints of one template segment for process p. */
typedef void (*AllowFire)(Model *m, int p, const void *arg);

/* What the lines of a template may change of process p, kept to be put back. */
typedef struct AllowKept { const char *last_traced; TraceState *trace; } AllowKept;

/* Guarantees: p's last traced tag and trace states (one per session) as they stand, in the
 * step's scratch arena (m->scratch). */
AllowKept allow_keep(Model *m, int p);
/* Guarantees: p's last traced tag and trace states as kept. */
void allow_restore(Model *m, int p, const AllowKept *kept);
/* Guarantees: the lines fire(m, p, arg) would write, "CLASS BODY" joined by " ; ", without
 * writing them and with p's last traced tag and trace states unchanged (the tracepoints of a
 * template change nothing else: gc and scheduling tags detach no tracer, ENABLED-REMOVE-EVENT;
 * one that would find the tracer module unloaded, TRACER-UNLOADED, detaches nothing here);
 * NULL when it writes none. In the step's scratch arena (m->scratch): what outlives the step is
 * copied (a template is made at every step a window is looked at, kept only when one opens). */
const char *allow_capture(Model *m, int p, AllowFire fire, const void *arg);
/* Guarantees: the line "A open wN RULE 0..LIMIT: TEMPLATE" (limit < 0: 0..*) for a new window
 * N, "A open wN RULE 0..LIMIT after wM: TEMPLATE" when after (M) is not 0: every instance of
 * window M comes before every instance of N; returns N. */
unsigned allow_open(Model *m, const char *rule, int limit, unsigned after, const char *tpl);
/* Guarantees: the line "A close wN", citing the window's rule. */
void allow_close(Model *m, unsigned id, const char *rule);
/* Lines captured instead of written, and the stream they would have gone to. */
typedef struct Captured { Stream lines; Stream *out; } Captured;

/* Guarantees: until allow_capture_stop(m, c), the lines the model writes go to c->lines. */
void allow_capture_start(Model *m, Captured *c);
/* Guarantees: the model writes to its stream again; c keeps what it captured (allow_captured_free). */
void allow_capture_stop(Model *m, Captured *c);
/* Guarantees: the lines c captured written to the model's stream, as they were. */
void allow_captured_write(Model *m, const Captured *c);
/* Guarantees: c's memory released. */
void allow_captured_free(Captured *c);
/* Guarantees: the lines of the n parts of first, in order, when the parts of second hold the same
 * lines; else an either-or N of the two (PROTOCOLS.md section 6, "Either-or"): "A either wN RULE",
 * first's lines, "A or wN", second's lines, "A end wN". */
void allow_either(Model *m, const char *rule, const Captured *const first[], const Captured *const second[], int n);

#endif
