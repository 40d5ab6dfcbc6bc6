/* allow.h - allowance windows: the A lines of the golden stream that say what the runtime may
 * add where, a behaviour the model cannot predict (PROTOCOLS.md section 6, "Allowance windows";
 * CONFORMANCE.md section 2, "Runtime additions"). */
#ifndef TCS_ALLOW_H
#define TCS_ALLOW_H

#include "model.h"

/* What fires the tracepoints of one template segment for process p. */
typedef void (*AllowFire)(Model *m, int p, const void *arg);

/* Guarantees: the lines fire(m, p, arg) would write, "CLASS BODY" joined by " ; ", without
 * writing them and with p's last traced tag and trace states unchanged (the tracepoints of a
 * template change nothing else: gc and scheduling tags detach no tracer, ENABLED-REMOVE-EVENT;
 * one that would find the tracer module unloaded, TRACER-UNLOADED, detaches nothing here);
 * NULL when it writes none. In the arena. */
const char *allow_capture(Model *m, int p, AllowFire fire, const void *arg);
/* Guarantees: the line "A open wN RULE 0..LIMIT: TEMPLATE" (limit < 0: 0..*) for a new window
 * N, "A open wN RULE 0..LIMIT after wM: TEMPLATE" when after (M) is not 0: every instance of
 * window M comes before every instance of N; returns N. */
unsigned allow_open(Model *m, const char *rule, int limit, unsigned after, const char *tpl);
/* Guarantees: the line "A close wN", citing the window's rule. */
void allow_close(Model *m, unsigned id, const char *rule);

#endif
