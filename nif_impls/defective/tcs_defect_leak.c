/*
 * Defect: trace* allocates an environment for every report and never frees
 * it (enif_send clears a message environment, it does not free it): the node
 * grows by an environment per event, a few hundred bytes, without bound.
 * Flagged by: leak
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_leak
#define TCS_TRACE_HOOK(env, argv) return report_leaking(env, argv)
static ERL_NIF_TERM report_leaking(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "../good/tcs_tracer_base.h"

/* Guarantees: sends {trace, Tag, Tracee, TraceTerm} to the state pid; leaks one environment per call. */
static ERL_NIF_TERM report_leaking(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    ErlNifEnv *msg_env = enif_alloc_env();   /* never freed: the defect */
    ERL_NIF_TERM msg = enif_make_tuple4(msg_env, enif_make_atom(msg_env, "trace"), enif_make_copy(msg_env, argv[0]),
                                        enif_make_copy(msg_env, argv[2]), enif_make_copy(msg_env, argv[3]));
    if (enif_get_local_pid(env, argv[1], &to))
        enif_send(env, &to, msg_env, msg);
    return enif_make_atom(env, "ok");
}
