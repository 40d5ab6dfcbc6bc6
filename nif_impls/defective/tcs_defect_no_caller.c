/*
 * Defect: for garbage collection tags, enabled compares the calling process
 * (enif_self) with the state, without checking that there is one.  The
 * runtime calls enabled with no calling process, so enif_self returns NULL
 * and the tracer crashes the emulator (SIGSEGV).
 * Flagged by: live, stress
 * Calls from Erlang always have a calling process, so only live traffic (and stress)
 * finds this.
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_no_caller
#define TCS_ENABLED_HOOK(env, argv, answer) \
    (is_gc_tag(env, argv[0]) && is_caller(env, argv[1]) ? enif_make_atom(env, "discard") : (answer))
static int is_gc_tag(ErlNifEnv *env, ERL_NIF_TERM tag);
static int is_caller(ErlNifEnv *env, ERL_NIF_TERM state);
#include "../good/tcs_tracer_base.h"

static int is_gc_tag(ErlNifEnv *env, ERL_NIF_TERM tag)
{
    return tcs_is_atom(env, tag, "gc_minor_start") || tcs_is_atom(env, tag, "gc_minor_end")
        || tcs_is_atom(env, tag, "gc_major_start") || tcs_is_atom(env, tag, "gc_major_end");
}

static int is_caller(ErlNifEnv *env, ERL_NIF_TERM state)
{
    ErlNifPid self_buf, state_pid;
    const ErlNifPid *self = enif_self(env, &self_buf);
    return enif_get_local_pid(env, state, &state_pid) && enif_compare_pids(self, &state_pid) == 0;
}
