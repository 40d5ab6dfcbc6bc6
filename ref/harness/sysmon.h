/* sysmon.h - a trace session's system monitoring: trace:system/3 and what
 * trace:info(S, system, all) lists (OTP 28+). */
#ifndef TCS_SYSMON_H
#define TCS_SYSMON_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: *sm monitors nothing. */
void sysmon_clear(SystemMonitor *sm);
/* Guarantees: the result text of trace:system(S, Event, Value) ("-> ok" or "raises
 * error:badarg") with its rule IDs in *rules, and session s's monitoring changed when ok;
 * NULL with the model's error set for a change model v1 does not support. */
const char *sysmon_set(Model *m, int s, const Term *event, const Term *value, const char **rules);
/* Guarantees: {system, List} of what session s monitors, in OTP's order
 * (SESSION-SYSTEM-INFO). */
Term *sysmon_info(Model *m, int s);
/* Guarantees: the control line of the harness's erlang:system_monitor(): undefined, as no step
 * sets the legacy system monitor and no session's trace:system/3 touches it
 * (SYSMON-LEGACY-APART); always true. */
bool sysmon_legacy_read(Model *m);

#endif
