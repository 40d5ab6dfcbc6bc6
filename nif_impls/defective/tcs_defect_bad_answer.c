/*
 * Defect: enabled answers `ok`, which is none of trace, discard and remove,
 * for the 'receive' tag.
 * Flagged by: enabled_answers
 * Live traffic does not crash: OTP takes an unknown answer as remove and
 * silently detaches the tracer from the tracee.
 */
#define TCS_MODULE tcs_defect_bad_answer
#define TCS_ENABLED_HOOK(env, argv, answer) \
    (tcs_is_atom(env, argv[0], "receive") ? enif_make_atom(env, "ok") : (answer))
#include "../good/tcs_tracer_base.h"
