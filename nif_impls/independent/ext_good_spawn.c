/*
 * ext_good_spawn -- CORRECT tracer module (erl_tracer behaviour, NIF back end)
 * that relies on the documented shape of spawn events. For TraceTag spawn and
 * spawned the `extra` entry of Opts is documented to be {M, F, Args} (the
 * fifth element of the trace tuple); this tracer checks that it is a 3-tuple
 * of atom, atom and proper list and sends the compact form
 * {trace, Tracee, Tag, TraceTerm, {M, F, Arity}} to the tracer state (a pid);
 * if `extra` is missing or has another shape it raises badarg
 * (enif_make_badarg). Every other event is forwarded unchanged as
 * {trace, Tracee, Tag, TraceTerm, Opts}. No shared mutable state.
 */
#include <erl_nif.h>

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status, atom_spawn, atom_spawned, atom_extra;

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    (void)load_info;
    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    atom_spawn = enif_make_atom(env, "spawn");
    atom_spawned = enif_make_atom(env, "spawned");
    atom_extra = enif_make_atom(env, "extra");
    *priv_data = NULL;
    return 0;
}

static int upgrade(ErlNifEnv *env, void **priv_data, void **old_priv_data,
                   ERL_NIF_TERM load_info)
{
    (void)old_priv_data;
    return load(env, priv_data, load_info);
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
    ERL_NIF_TERM msg;
    (void)argc;

    if (!enif_get_local_pid(env, argv[1], &to))
        return atom_ok;

    if (enif_is_identical(argv[0], atom_spawn)
        || enif_is_identical(argv[0], atom_spawned)) {
        ERL_NIF_TERM extra;
        const ERL_NIF_TERM *mfa;
        int arity;
        unsigned nargs;

        if (!enif_get_map_value(env, argv[4], atom_extra, &extra)
            || !enif_get_tuple(env, extra, &arity, &mfa) || arity != 3
            || !enif_is_atom(env, mfa[0]) || !enif_is_atom(env, mfa[1])
            || !enif_get_list_length(env, mfa[2], &nargs))
            return enif_make_badarg(env);

        msg = enif_make_tuple5(env, atom_trace, argv[2], argv[0], argv[3],
                               enif_make_tuple3(env, mfa[0], mfa[1],
                                                enif_make_uint(env, nargs)));
    } else {
        msg = enif_make_tuple5(env, atom_trace, argv[2], argv[0], argv[3],
                               argv[4]);
    }
    enif_send(env, &to, NULL, msg);
    return atom_ok;
}

static ErlNifFunc nif_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0}
};

ERL_NIF_INIT(ext_good_spawn, nif_funcs, load, NULL, upgrade, NULL)
