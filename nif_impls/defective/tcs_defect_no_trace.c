/*
 * Defect: the NIF table has trace_send/5 but no trace/5, so the runtime
 * refuses the module as a tracer (erlang:trace/3 raises badarg).
 * Flagged by: shape
 */
#define TCS_MODULE tcs_defect_no_trace
#define TCS_FUNCS {"enabled", 3, tcs_enabled, 0}, {"trace_send", 5, tcs_trace, 0}
#include "../good/tcs_tracer_base.h"
