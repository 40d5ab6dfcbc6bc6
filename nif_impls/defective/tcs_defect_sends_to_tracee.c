/*
 * Defect: trace/5 tells the tracee about each process it spawns, a message to
 * the tracee (spec 000: "Do not send messages or issue port commands to the
 * Tracee in any of the callbacks").
 * Flagged by: tracee_untouched
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_sends_to_tracee
#define TCS_TRACE_HOOK(env, argv) tell_parent(env, argv)
static void tell_parent(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "../good/tcs_tracer_base.h"

static void tell_parent(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ErlNifPid parent;
    if (tcs_is_atom(env, argv[0], "spawn") && enif_get_local_pid(env, argv[2], &parent))
        tcs_send(env, &parent, enif_make_tuple2(env, enif_make_atom(env, "spawned"), argv[3]));
}
