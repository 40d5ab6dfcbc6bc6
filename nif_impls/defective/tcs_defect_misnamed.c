/*
 * Defect: the NIF table names an optional callback `enabled_sends/3` (for
 * enabled_send/3): the runtime never calls it, and nothing says so.
 * Flagged by: shape
 */
#define TCS_MODULE tcs_defect_misnamed
#define TCS_FUNCS {"enabled", 3, tcs_enabled, 0}, {"trace", 5, tcs_trace, 0}, \
                  {"enabled_sends", 3, tcs_enabled, 0}
#include "../good/tcs_tracer_base.h"
