/*
 * ext_racy -- batching tracer module (erl_tracer behaviour, NIF back end).
 * DEFECTIVE (not thread-safe): one static ring buffer of 64 entries with a
 * plain, non-atomic index, and one static ErlNifEnv allocated once at load
 * (enif_alloc_env) and reused by every call. trace/5 copies the event
 * {trace, Tracee, Tag, TraceTerm, Opts} into ring[idx] in that shared env and
 * increments idx; every 64 events the batch (enif_make_list of the copied
 * terms) is sent to the tracer state (a pid) and the env is cleared with
 * enif_clear_env. Correct when called sequentially; when two schedulers call
 * trace/5 at once they allocate in the same env concurrently, race on idx
 * (lost updates, idx running past 63 so that ring[64..] is written) and
 * corrupt memory.
 */
#include <erl_nif.h>

#define RING_SIZE 64

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status;

static ErlNifEnv *ring_env;          /* shared by every call: not thread-safe */
static ERL_NIF_TERM ring[RING_SIZE];
static unsigned ring_idx;            /* plain index, no lock, no atomics */

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    (void)load_info;
    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    ring_env = enif_alloc_env();
    if (!ring_env)
        return 1;
    ring_idx = 0;
    *priv_data = NULL;
    return 0;
}

static void unload(ErlNifEnv *env, void *priv_data)
{
    (void)env;
    (void)priv_data;
    if (ring_env)
        enif_free_env(ring_env);
    ring_env = NULL;
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
    ERL_NIF_TERM ev;
    (void)argc;

    if (!enif_get_local_pid(env, argv[1], &to))
        return atom_ok;

    ev = enif_make_tuple5(env, atom_trace, argv[2], argv[0], argv[3], argv[4]);
    ring[ring_idx] = enif_make_copy(ring_env, ev);
    ring_idx++;

    if (ring_idx == RING_SIZE) {
        ERL_NIF_TERM batch = enif_make_list_from_array(ring_env, ring, RING_SIZE);
        enif_send(env, &to, ring_env, batch);
        enif_clear_env(ring_env);
        ring_idx = 0;
    }
    return atom_ok;
}

static ErlNifFunc nif_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0}
};

ERL_NIF_INIT(ext_racy, nif_funcs, load, NULL, NULL, unload)
