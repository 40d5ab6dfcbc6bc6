/*
 * Defect: enabled raises badarg for the spawn tag.
 * Flagged by: enabled_answers
 * Live traffic does not crash: OTP takes the exception as remove.
 */
#define TCS_MODULE tcs_defect_enabled_raises
#define TCS_ENABLED_HOOK(env, argv, answer) \
    (tcs_is_atom(env, argv[0], "spawn") ? enif_make_badarg(env) : (answer))
#include "../good/tcs_tracer_base.h"
