/*
 * A correct tracer that relies on the documented shape of spawn events: for
 * spawn and spawned, Opts extra is {M, F, Args} (003: {trace, Pid, spawn,
 * Pid2, {M, F, Args}}; Args may be any term if the spawn is erroneous), and
 * it answers badarg to anything else, an input the runtime never makes.  It
 * must pass every check: validate presents no spawn without {M, F, Args}.
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_good_spawn_reader
#define TCS_TRACE_HOOK(env, argv) \
    do { if (!spawn_entry_ok(env, argv)) return enif_make_badarg(env); } while (0)
static int spawn_entry_ok(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "tcs_tracer_base.h"

/* Guarantees: false only for a spawn or spawned event whose extra is not {M, F, Args} with atoms M and F. */
static int spawn_entry_ok(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ERL_NIF_TERM mfa;
    const ERL_NIF_TERM *parts;
    int arity;
    if (!tcs_is_atom(env, argv[0], "spawn") && !tcs_is_atom(env, argv[0], "spawned"))
        return 1;
    return enif_get_map_value(env, argv[4], enif_make_atom(env, "extra"), &mfa)
        && enif_get_tuple(env, mfa, &arity, &parts) && arity == 3
        && enif_is_atom(env, parts[0]) && enif_is_atom(env, parts[1]);
}
