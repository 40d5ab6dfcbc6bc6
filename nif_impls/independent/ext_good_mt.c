/*
 * ext_good_mt -- CORRECT multi-threaded tracer module (erl_tracer behaviour,
 * NIF back end). It forwards every event as {trace, Tracee, Tag, TraceTerm,
 * Opts} to the tracer state (a pid) and keeps statistics that are safe to
 * update from all schedulers at once: one counter per scheduler, in an array
 * sized at load from enif_system_info (scheduler_threads) plus the dirty CPU
 * and dirty IO scheduler counts handed over in load_info, indexed by the
 * 1-based Opts scheduler_id minus 1 after a bounds check (out-of-range ids,
 * including 0, go to an "other" counter), updated with C11 atomics; and a
 * mutex-protected ring of the last 64 events (sequence number, tag,
 * scheduler id). Terms are only built in the env of the current call or in a
 * fresh message env allocated per send and freed right after enif_send; the
 * caller env is passed to enif_send because the callbacks run on ERTS
 * scheduler threads (NULL is only for non-ERTS threads). The per-category
 * callbacks enabled_send/trace_send, enabled_receive/trace_receive,
 * enabled_procs/trace_procs and enabled_call/trace_call share the generic
 * code. counts/0 and recent/0 read the statistics.
 */
#include <erl_nif.h>
#include <stdatomic.h>
#include <stdint.h>

#define RING_SIZE 64

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status, atom_scheduler_id, atom_undefined;

static _Atomic uint64_t *sched_counts;   /* nslots entries */
static _Atomic uint64_t other_count;     /* ids outside 1..nslots */
static unsigned nslots;

struct ring_entry {
    uint64_t seq;
    ERL_NIF_TERM tag;        /* an atom: valid in every env */
    int sched_id;            /* -1: no scheduler_id in Opts */
};

static ErlNifMutex *ring_mtx;
static struct ring_entry ring[RING_SIZE];
static uint64_t ring_seq;    /* protected by ring_mtx */

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    ErlNifSysInfo info;
    const ERL_NIF_TERM *li;
    int arity;
    unsigned normal = 0, dirty_cpu = 0, dirty_io = 0, i;

    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    atom_scheduler_id = enif_make_atom(env, "scheduler_id");
    atom_undefined = enif_make_atom(env, "undefined");

    enif_system_info(&info, sizeof(info));
    if (info.scheduler_threads > 0)
        normal = (unsigned)info.scheduler_threads;

    /* load_info: {Schedulers, DirtyCpuSchedulers, DirtyIoSchedulers} */
    if (enif_get_tuple(env, load_info, &arity, &li) && arity == 3) {
        unsigned s = 0;
        if (enif_get_uint(env, li[0], &s) && s > normal)
            normal = s;
        if (!enif_get_uint(env, li[1], &dirty_cpu))
            dirty_cpu = 0;
        if (!enif_get_uint(env, li[2], &dirty_io))
            dirty_io = 0;
    }
    nslots = normal + dirty_cpu + dirty_io;
    if (nslots == 0)
        nslots = 1;

    sched_counts = enif_alloc(nslots * sizeof(*sched_counts));
    if (!sched_counts)
        return 1;
    for (i = 0; i < nslots; i++)
        atomic_init(&sched_counts[i], 0);
    atomic_init(&other_count, 0);

    ring_mtx = enif_mutex_create("ext_good_mt_ring");
    if (!ring_mtx) {
        enif_free((void *)sched_counts);
        sched_counts = NULL;
        return 1;
    }
    ring_seq = 0;
    *priv_data = NULL;
    return 0;
}

static void unload(ErlNifEnv *env, void *priv_data)
{
    (void)env;
    (void)priv_data;
    if (ring_mtx)
        enif_mutex_destroy(ring_mtx);
    ring_mtx = NULL;
    if (sched_counts)
        enif_free((void *)sched_counts);
    sched_counts = NULL;
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

static void record(ErlNifEnv *env, ERL_NIF_TERM tag, ERL_NIF_TERM opts)
{
    ERL_NIF_TERM sid;
    int id = -1;
    struct ring_entry *e;

    if (enif_get_map_value(env, opts, atom_scheduler_id, &sid)
        && enif_get_int(env, sid, &id)) {
        if (id >= 1 && (unsigned)id <= nslots)
            atomic_fetch_add_explicit(&sched_counts[id - 1], 1,
                                      memory_order_relaxed);
        else
            atomic_fetch_add_explicit(&other_count, 1, memory_order_relaxed);
    } else {
        id = -1;
    }

    if (!enif_is_atom(env, tag))
        tag = atom_undefined;
    enif_mutex_lock(ring_mtx);
    e = &ring[ring_seq % RING_SIZE];
    e->seq = ring_seq;
    e->tag = tag;
    e->sched_id = id;
    ring_seq++;
    enif_mutex_unlock(ring_mtx);
}

/* argv: TraceTag, TracerState, Tracee, TraceTerm, Opts */
static ERL_NIF_TERM trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    ErlNifEnv *msg_env;
    ERL_NIF_TERM msg;
    (void)argc;

    record(env, argv[0], argv[4]);

    if (!enif_get_local_pid(env, argv[1], &to))
        return atom_ok;

    msg_env = enif_alloc_env();
    if (!msg_env)
        return atom_ok;
    msg = enif_make_tuple5(msg_env, enif_make_copy(msg_env, atom_trace),
                           enif_make_copy(msg_env, argv[2]),
                           enif_make_copy(msg_env, argv[0]),
                           enif_make_copy(msg_env, argv[3]),
                           enif_make_copy(msg_env, argv[4]));
    enif_send(env, &to, msg_env, msg);
    enif_free_env(msg_env);
    return atom_ok;
}

/* counts() -> {[CountForSchedulerId1, ...], OtherCount} */
static ERL_NIF_TERM counts(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ERL_NIF_TERM list = enif_make_list(env, 0);
    unsigned i;
    (void)argc;
    (void)argv;
    for (i = nslots; i > 0; i--)
        list = enif_make_list_cell(
            env,
            enif_make_uint64(env, atomic_load_explicit(&sched_counts[i - 1],
                                                       memory_order_relaxed)),
            list);
    return enif_make_tuple2(
        env, list,
        enif_make_uint64(env, atomic_load_explicit(&other_count,
                                                   memory_order_relaxed)));
}

/* recent() -> [{Seq, Tag, SchedulerIdOrMinus1}], oldest first */
static ERL_NIF_TERM recent(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ERL_NIF_TERM items[RING_SIZE];
    unsigned n = 0;
    uint64_t first, s;
    (void)argc;
    (void)argv;

    enif_mutex_lock(ring_mtx);
    first = ring_seq > RING_SIZE ? ring_seq - RING_SIZE : 0;
    for (s = first; s < ring_seq; s++) {
        const struct ring_entry *e = &ring[s % RING_SIZE];
        items[n++] = enif_make_tuple3(env, enif_make_uint64(env, e->seq),
                                      e->tag, enif_make_int(env, e->sched_id));
    }
    enif_mutex_unlock(ring_mtx);
    return enif_make_list_from_array(env, items, n);
}

static ErlNifFunc nif_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0},
    {"enabled_send", 3, enabled, 0},
    {"trace_send", 5, trace, 0},
    {"enabled_receive", 3, enabled, 0},
    {"trace_receive", 5, trace, 0},
    {"enabled_procs", 3, enabled, 0},
    {"trace_procs", 5, trace, 0},
    {"enabled_call", 3, enabled, 0},
    {"trace_call", 5, trace, 0},
    {"counts", 0, counts, 0},
    {"recent", 0, recent, 0}
};

ERL_NIF_INIT(ext_good_mt, nif_funcs, load, NULL, NULL, unload)
