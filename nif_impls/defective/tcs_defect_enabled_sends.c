/*
 * Defect: enabled sends {enabled, Tag, Tracee} to the state process: a side
 * effect where the documentation asks for none.
 * Flagged by: enabled_pure
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_enabled_sends
#define TCS_ENABLED_HOOK(env, argv, answer) (announce(env, argv), (answer))
static void announce(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "../good/tcs_tracer_base.h"

static void announce(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    if (enif_get_local_pid(env, argv[1], &to) && enif_is_process_alive(env, &to))
        tcs_send(env, &to, enif_make_tuple3(env, enif_make_atom(env, "enabled"), argv[0], argv[2]));
}
