/*
 * ext_names -- "who talks to whom" tracer module (erl_tracer behaviour, NIF
 * back end), in the spirit of the erl_msg_tracer example: for send events
 * (TraceTag send) it sends {send, Sender, Recipient, Msg} to the tracer state
 * (a pid), taking the recipient from the `extra` entry of Opts; every other
 * event is forwarded as {trace, Tracee, Tag, TraceTerm, Opts}.
 * DEFECTIVE (misreads a send's recipient): it assumes `extra` of a send is
 * either a local pid (enif_get_local_pid) or a {Name, Node} tuple. For any
 * other recipient -- notably a send to a locally registered name, where
 * `extra` is the name atom (also a port, or a remote pid) -- the recipient
 * parser returns NULL and the caller dereferences that NULL pointer, crashing
 * the emulator.
 */
#include <erl_nif.h>
#include <stddef.h>

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status, atom_send, atom_extra;

enum recipient_kind { RCPT_PID, RCPT_NAME_NODE };

struct recipient {
    enum recipient_kind kind;
    ErlNifPid pid;
    ERL_NIF_TERM name;
    ERL_NIF_TERM node;
};

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    (void)load_info;
    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    atom_send = enif_make_atom(env, "send");
    atom_extra = enif_make_atom(env, "extra");
    *priv_data = NULL;
    return 0;
}

/* Recipient of a send: a pid, or {RegName, Node}. */
static struct recipient *parse_recipient(ErlNifEnv *env, ERL_NIF_TERM term,
                                         struct recipient *r)
{
    const ERL_NIF_TERM *tup;
    int arity;

    if (enif_get_local_pid(env, term, &r->pid)) {
        r->kind = RCPT_PID;
        return r;
    }
    if (enif_get_tuple(env, term, &arity, &tup) && arity == 2) {
        r->kind = RCPT_NAME_NODE;
        r->name = tup[0];
        r->node = tup[1];
        return r;
    }
    return NULL;
}

static ERL_NIF_TERM recipient_term(ErlNifEnv *env, const struct recipient *r)
{
    if (r->kind == RCPT_PID)
        return enif_make_pid(env, &r->pid);
    return enif_make_tuple2(env, r->name, r->node);
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
    ERL_NIF_TERM msg, extra;
    (void)argc;

    if (!enif_get_local_pid(env, argv[1], &to))
        return atom_ok;

    if (enif_is_identical(argv[0], atom_send)
        && enif_get_map_value(env, argv[4], atom_extra, &extra)) {
        struct recipient buf;
        struct recipient *r = parse_recipient(env, extra, &buf);
        /* BUG: r is NULL for a registered-name atom (or a port, remote pid) */
        msg = enif_make_tuple4(env, atom_send, argv[2], recipient_term(env, r),
                               argv[3]);
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

ERL_NIF_INIT(ext_names, nif_funcs, load, NULL, NULL, NULL)
