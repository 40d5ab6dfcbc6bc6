/*
 * Defect: enabled answers remove for trace_status even when the state process
 * is alive, so tracing never stays on.
 * Flagged by: dead_state
 * (the check's control: with a live state the tracer must stay attached)
 */
#define TCS_MODULE tcs_defect_always_remove
#define TCS_ENABLED_HOOK(env, argv, answer) \
    (tcs_is_atom(env, argv[0], "trace_status") ? enif_make_atom(env, "remove") : (answer))
#include "../good/tcs_tracer_base.h"
