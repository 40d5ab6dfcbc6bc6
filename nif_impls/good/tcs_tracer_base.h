/*
 * tcs_tracer_base.h: a correct erl_tracer NIF, written once and included by
 * the bundled good tracer (tcs_good_tracer.c) and by every deliberately
 * defective tracer in ../defective/, each of which changes exactly one thing
 * through one of the hooks below.
 *
 * Behaviour, the documentation example's (spec 000, erl_msg_tracer) made to
 * trace every tag:
 *   enabled*  the state is a pid of a dead process: `remove` for
 *             trace_status, `discard` for any other tag; otherwise `trace`.
 *             No side effects.
 *   trace*    sends {trace, Tag, Tracee, TraceTerm} to the state, when the
 *             state is a pid; never to the tracee.
 *
 * The including file defines, before including this header:
 *   TCS_MODULE                   the Erlang module name (required)
 *   TCS_ENABLED_HOOK(env, argv, answer)
 *                                an expression: the answer enabled* returns
 *                                (default: answer, the correct one)
 *   TCS_TRACE_HOOK(env, argv)    a statement run first in trace* (may return)
 *   TCS_FUNCS                    the NIF function table entries (default:
 *                                enabled/3 and trace/5 only)
 *   TCS_LOAD                     the library's load callback (default: none)
 */
#include <erl_nif.h>

#ifndef TCS_MODULE
#error "define TCS_MODULE, the Erlang module name of this tracer"
#endif

/* Guarantees: true only when the state is the pid of a process that is not alive. */
static int tcs_state_is_dead(ErlNifEnv *env, ERL_NIF_TERM state)
{
    ErlNifPid pid;
    return enif_get_local_pid(env, state, &pid) && !enif_is_process_alive(env, &pid);
}

/* Guarantees: true when term is the atom named name. */
static int tcs_is_atom(ErlNifEnv *env, ERL_NIF_TERM term, const char *name)
{
    return enif_is_identical(term, enif_make_atom(env, name));
}

/* Guarantees: the answer of the documentation example, for every tag. */
static ERL_NIF_TERM tcs_correct_answer(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    if (tcs_state_is_dead(env, argv[1]))
        return enif_make_atom(env, tcs_is_atom(env, argv[0], "trace_status") ? "remove" : "discard");
    return enif_make_atom(env, "trace");
}

/* Guarantees: sends a copy of msg (built in env) to pid, from any context. */
static void tcs_send(ErlNifEnv *env, const ErlNifPid *pid, ERL_NIF_TERM msg)
{
    ErlNifEnv *msg_env = enif_alloc_env();
    enif_send(env, pid, msg_env, enif_make_copy(msg_env, msg));
    enif_free_env(msg_env);
}

#ifndef TCS_ENABLED_HOOK
#define TCS_ENABLED_HOOK(env, argv, answer) (answer)
#endif
#ifndef TCS_TRACE_HOOK
#define TCS_TRACE_HOOK(env, argv) ((void)0)
#endif

/* enabled/3 and every enabled_X/3: argv = [TraceTag, TracerState, Tracee]. */
static ERL_NIF_TERM tcs_enabled(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc;
    return TCS_ENABLED_HOOK(env, argv, tcs_correct_answer(env, argv));
}

/* trace/5 and every trace_X/5: argv = [TraceTag, TracerState, Tracee, TraceTerm, Opts]. */
static ERL_NIF_TERM tcs_trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    (void)argc;
    TCS_TRACE_HOOK(env, argv);
    if (enif_get_local_pid(env, argv[1], &to))
        tcs_send(env, &to, enif_make_tuple4(env, enif_make_atom(env, "trace"), argv[0], argv[2], argv[3]));
    return enif_make_atom(env, "ok");
}

#ifndef TCS_FUNCS
#define TCS_FUNCS {"enabled", 3, tcs_enabled, 0}, {"trace", 5, tcs_trace, 0}
#endif

static ErlNifFunc tcs_funcs[] = {TCS_FUNCS};

#ifndef TCS_LOAD
#define TCS_LOAD NULL
#endif

#define TCS_INIT(module) ERL_NIF_INIT(module, tcs_funcs, TCS_LOAD, NULL, NULL, NULL)
TCS_INIT(TCS_MODULE)
