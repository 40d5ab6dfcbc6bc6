/*
 * ext_leaky -- forwarding tracer module (erl_tracer behaviour, NIF back end).
 * Every trace/5 call formats the trace tag into a 256-byte scratch buffer and
 * sends {trace, Tracee, Tag, TraceTerm, Opts} to the tracer state (a pid),
 * building the message in its own message environment.
 * DEFECTIVE (leaks): for EVERY trace call it allocates a new ErlNifEnv with
 * enif_alloc_env and a 256-byte malloc buffer and never frees either
 * (enif_send only clears the message env, it does not free it). Each event
 * is delivered correctly, but the emulator's memory grows without bound for
 * as long as tracing runs.
 */
#include <erl_nif.h>
#include <stdlib.h>

#define SCRATCH_SIZE 256

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status;

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    (void)load_info;
    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    *priv_data = NULL;
    return 0;
}

/* argv: TraceTag, TracerState, Tracee */
static ERL_NIF_TERM enabled(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    (void)argc;
    if (!enif_get_local_pid(env, argv[1], &to) || !enif_is_process_alive(env, &to))
        return enif_is_identical(argv[0], atom_trace_status) ? atom_remove : atom_discard;
    if (enif_is_identical(argv[0], atom_trace_status))
        return atom_trace;
    if (enif_is_identical(argv[1], argv[2]))
        return atom_discard;         /* never message the tracee itself */
    return atom_trace;
}

/* argv: TraceTag, TracerState, Tracee, TraceTerm, Opts */
static ERL_NIF_TERM trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    ErlNifEnv *msg_env;
    char *scratch;
    ERL_NIF_TERM tag, msg;
    (void)argc;

    if (!enif_get_local_pid(env, argv[1], &to))
        return atom_ok;

    msg_env = enif_alloc_env();              /* never freed */
    scratch = malloc(SCRATCH_SIZE);          /* never freed */
    if (!msg_env || !scratch)
        return atom_ok;

    if (enif_get_atom(env, argv[0], scratch, SCRATCH_SIZE, ERL_NIF_LATIN1) > 0)
        tag = enif_make_atom(msg_env, scratch);
    else
        tag = enif_make_copy(msg_env, argv[0]);

    msg = enif_make_tuple5(msg_env, enif_make_copy(msg_env, atom_trace),
                           enif_make_copy(msg_env, argv[2]), tag,
                           enif_make_copy(msg_env, argv[3]),
                           enif_make_copy(msg_env, argv[4]));
    enif_send(env, &to, msg_env, msg);
    return atom_ok;
}

static ErlNifFunc nif_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0}
};

ERL_NIF_INIT(ext_leaky, nif_funcs, load, NULL, NULL, NULL)
