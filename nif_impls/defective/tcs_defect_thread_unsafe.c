/*
 * Defect: trace* builds every report in one process-independent environment
 * made at load, shared by every call without a lock.  Each call is right on
 * its own; when two schedulers call it at once, one clears the environment
 * (enif_send does) while the other is building in it: the other sends
 * garbage or the node crashes.  The runtime calls tracers from every
 * scheduler at once ("called in the context of the entity that triggered the
 * trace probe", 000).
 * Flagged by: stress
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_thread_unsafe
#define TCS_TRACE_HOOK(env, argv) return report_in_shared_env(env, argv)
#define TCS_LOAD load_shared_env
static ERL_NIF_TERM report_in_shared_env(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
static int load_shared_env(ErlNifEnv *env, void **priv, ERL_NIF_TERM info);
#include "../good/tcs_tracer_base.h"

/* Guarantees: priv is a process-independent environment (the one every call shares). */
static int load_shared_env(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    (void)env;
    (void)info;
    *priv = enif_alloc_env();
    return 0;
}

/* Guarantees: sends {trace, Tag, Tracee, TraceTerm} to the state pid, built in the shared environment. */
static ERL_NIF_TERM report_in_shared_env(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ErlNifEnv *shared = enif_priv_data(env);
    ErlNifPid to;
    if (enif_get_local_pid(env, argv[1], &to)) {
        ERL_NIF_TERM tracee = enif_make_copy(shared, argv[2]);
        ERL_NIF_TERM term = enif_make_copy(shared, argv[3]);
        ERL_NIF_TERM tag = enif_make_copy(shared, argv[0]);
        enif_send(env, &to, shared, enif_make_tuple4(shared, enif_make_atom(shared, "trace"), tag, tracee, term));
    }
    return enif_make_atom(env, "ok");
}
