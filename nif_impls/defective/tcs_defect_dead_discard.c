/*
 * Defect: when the state process is dead, enabled answers discard for
 * trace_status instead of remove, so the tracer is never removed from its
 * tracees (the runtime takes any answer but remove as "still active").
 * Flagged by: dead_state
 */
#define TCS_MODULE tcs_defect_dead_discard
#define TCS_ENABLED_HOOK(env, argv, answer) \
    (tcs_is_atom(env, answer, "remove") ? enif_make_atom(env, "discard") : (answer))
#include "../good/tcs_tracer_base.h"
