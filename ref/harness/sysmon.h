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
/* Guarantees: the control line of the harness's `system_monitor` step: erlang:system_monitor()
 * answers the legacy monitor's settings, undefined while no step set them (no session's
 * trace:system/3 touches them, SYSMON-LEGACY-APART); erlang:system_monitor(undefined) and
 * erlang:system_monitor(P, [{large_heap, N}]) answer the settings before and change them
 * (SYSMON-LEGACY-SET); false with err set for a limit or a case model v1 refuses (C-640). */
bool sysmon_legacy_step(Model *m, const Step *st);
/* Guarantees: NULL, or why model v1 refuses st ("... is", C-640): st may give a harness's or the
 * runtime's process a large heap while the legacy system monitor is set; records that such a
 * step ran (a later erlang:system_monitor/2 is refused). */
const char *sysmon_legacy_refuses(Model *m, const Step *st);
/* Guarantees: the windows of every long_schedule monitor still set at the end of the case closed
 * (the stream closes every window it opens). */
void sysmon_end(Model *m);

#endif
