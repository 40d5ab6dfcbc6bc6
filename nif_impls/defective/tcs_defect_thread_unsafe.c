/*
 * Defect: trace* keeps the environment of the report it is building in a
 * static variable, shared by every call without a lock: it allocates an
 * environment there, builds {trace, Tag, Tracee, TraceTerm} in it, sends it
 * and frees it.  Each call is right on its own; when two schedulers call it
 * at once, one builds in or frees the other's environment: the node crashes
 * (a double free, a use after free) or the state gets garbage.  The runtime
 * calls tracers from every scheduler at once ("called in the context of the
 * entity that triggered the trace probe", 000).
 * Flagged by: stress
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_thread_unsafe
#define TCS_TRACE_HOOK(env, argv) return report_in_static_env(env, argv)
static ERL_NIF_TERM report_in_static_env(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "../good/tcs_tracer_base.h"

/* The environment of the report under construction: one for every thread (the defect). */
static ErlNifEnv *building;

/* Guarantees: sends {trace, Tag, Tracee, TraceTerm} to the state pid, when called by one thread at a time. */
static ERL_NIF_TERM report_in_static_env(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    if (enif_get_local_pid(env, argv[1], &to)) {
        ERL_NIF_TERM tag, tracee, term;
        building = enif_alloc_env();
        tag = enif_make_copy(building, argv[0]);
        tracee = enif_make_copy(building, argv[2]);
        term = enif_make_copy(building, argv[3]);
        enif_send(env, &to, building, enif_make_tuple4(building, enif_make_atom(building, "trace"), tag, tracee, term));
        enif_free_env(building);
    }
    return enif_make_atom(env, "ok");
}
