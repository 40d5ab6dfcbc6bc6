/* procspec.h - erlang:trace/3 from the harness: the processes it names, the flags it sets,
 * what it returns. */
#ifndef TCS_PROCSPEC_H
#define TCS_PROCSPEC_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: whether a trace step that turns flags on (on) or off for the defaults of new
 * processes (ports), naming a tracer or not, clears those defaults whole, flags and tracer,
 * whenever it touches them (PROCS-NEW-OFF-CLEARS). */
bool procspec_off_clears(bool on, bool names_tracer);
/* Guarantees: the trace_status probe (an informative line) that erts makes of the defaults'
 * tracer in session s (state, NULL: the session's) right after a change leaves the defaults
 * for new processes or for new ports with flags; true iff it answered remove, in which case
 * " PROCS-NEW-PROBE" is appended to rules and the caller clears those defaults (PROCS-NEW-PROBE). */
bool procspec_defaults_probe_removes(Model *m, int s, const Term *state, Buf *rules);
/* Guarantees: the effect of an accepted `trace` step in session s on every process (port) it
 * names, a pid or a spec; the text of what the call returns ("1", "0", or a count placeholder);
 * the rule IDs of the decision appended to rules. state: the tracer state the step named, or NULL. */
const char *procspec_apply(Model *m, int s, const Step *st, const Term *state, Buf *rules);
/* Guarantees: the effect and ctl line of a `trace` step (erlang:trace/3, legacy session). */
bool procspec_step(Model *m, const Step *st);

#endif
