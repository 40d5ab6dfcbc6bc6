/*
 * Defect: trace/5 crashes the emulator (SIGSEGV) when the Opts map asks for a
 * cpu_timestamp.
 * Flagged by: trace_accepts
 * Live traffic does not ask for it: the runtime gives cpu_timestamp only to
 * tracing of all processes (erlang:trace(all, ...)), which the live check
 * does not start because it would trace the harness itself.
 */
#include <erl_nif.h>
#include <signal.h>

#define TCS_MODULE tcs_defect_trace_crash
#define TCS_TRACE_HOOK(env, argv) crash_on_cpu_timestamp(env, argv[4])
static void crash_on_cpu_timestamp(ErlNifEnv *env, ERL_NIF_TERM opts);
#include "../good/tcs_tracer_base.h"

static void crash_on_cpu_timestamp(ErlNifEnv *env, ERL_NIF_TERM opts)
{
    ERL_NIF_TERM kind;
    if (enif_get_map_value(env, opts, enif_make_atom(env, "timestamp"), &kind)
        && tcs_is_atom(env, kind, "cpu_timestamp"))
        raise(SIGSEGV);
}
