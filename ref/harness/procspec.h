/* procspec.h - erlang:trace/3 from the harness: the processes it names, the flags it sets,
 * what it returns. */
#ifndef TCS_PROCSPEC_H
#define TCS_PROCSPEC_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect of an accepted `trace` step in session s on every process (port) it
 * names, a pid or a spec; the text of what the call returns ("1", "0", or a count placeholder);
 * the rule IDs of the decision appended to rules. state: the tracer state the step named, or NULL. */
const char *procspec_apply(Model *m, int s, const Step *st, const Term *state, Buf *rules);
/* Guarantees: the defaults for new processes of session s after turning set on or off; off
 * clears them all when a flag of set applies to processes (PROCS-NEW-OFF). */
void procspec_new_procs(Model *m, int s, FlagSet set, bool on);
/* Guarantees: the defaults for new ports of session s after turning set on (its flags set, the
 * probe origin rule) or off (all of them cleared when a flag of set applies to ports, PROCS-NEW-OFF). */
void procspec_new_ports(Model *m, int s, FlagSet set, bool on, const char *rule);
/* Guarantees: the effect and ctl line of a `trace` step (erlang:trace/3, legacy session). */
bool procspec_step(Model *m, const Step *st);

#endif
