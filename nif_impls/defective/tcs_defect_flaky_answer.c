/*
 * Defect: enabled answers trace and discard by turns for the send tag, so
 * asking twice gives two answers (spec 000, enabled/3: "it is important that
 * it is both fast and without side effects").
 * Flagged by: enabled_pure
 */
#include <erl_nif.h>
#include <stdatomic.h>

#define TCS_MODULE tcs_defect_flaky_answer
#define TCS_ENABLED_HOOK(env, argv, answer) \
    (tcs_is_atom(env, argv[0], "send") ? by_turns(env, answer) : (answer))
static ERL_NIF_TERM by_turns(ErlNifEnv *env, ERL_NIF_TERM answer);
#include "../good/tcs_tracer_base.h"

static atomic_uint turns;

/* Every second call answers discard instead of the correct answer. */
static ERL_NIF_TERM by_turns(ErlNifEnv *env, ERL_NIF_TERM answer)
{
    return atomic_fetch_add(&turns, 1) % 2 ? enif_make_atom(env, "discard") : answer;
}
