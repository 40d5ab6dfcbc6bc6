/*
 * ext_schedid -- per-scheduler event counting tracer module (erl_tracer
 * behaviour, NIF back end). It forwards {trace, Tracee, Tag, TraceTerm, Opts}
 * to the tracer state (a pid) and, when the Opts map carries scheduler_id,
 * updates a per-scheduler statistics slot; counts/0 returns the event counts.
 * The slot array is malloc'd at load with exactly as many slots as
 * enif_system_info reports scheduler threads (info.scheduler_threads).
 * DEFECTIVE (misreads scheduler_id): scheduler ids are 1-based, but the slot
 * is indexed with the id itself, WITHOUT subtracting 1 (the bounds check
 * "id > nsched" is right for 1-based ids, the indexing is not). An event on
 * the highest-numbered scheduler writes a whole 32-byte slot, including a
 * 0x5CED... magic pattern, one past the end of the malloc'd array,
 * clobbering the malloc metadata or data of the next heap block: real heap
 * corruption. Events without scheduler_id in Opts, or on lower schedulers,
 * behave correctly (slot 0 is simply never used).
 */
#include <erl_nif.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOT_MAGIC 0x5CED5CED5CED5CEDULL

struct sched_slot {          /* 32 bytes */
    uint64_t events;
    uint64_t last_ns;
    uint64_t last_tag;
    uint64_t magic;
};

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status, atom_scheduler_id;

static struct sched_slot *slots;
static int nsched;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    ErlNifSysInfo info;
    (void)load_info;
    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    atom_scheduler_id = enif_make_atom(env, "scheduler_id");

    enif_system_info(&info, sizeof(info));
    nsched = info.scheduler_threads;
    if (nsched < 1)
        nsched = 1;
    slots = malloc((size_t)nsched * sizeof(struct sched_slot));
    if (!slots)
        return 1;
    memset(slots, 0, (size_t)nsched * sizeof(struct sched_slot));
    *priv_data = NULL;
    return 0;
}

static void unload(ErlNifEnv *env, void *priv_data)
{
    (void)env;
    (void)priv_data;
    free(slots);
    slots = NULL;
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
    ERL_NIF_TERM sid;
    int id;
    (void)argc;

    if (enif_get_map_value(env, argv[4], atom_scheduler_id, &sid)
        && enif_get_int(env, sid, &id) && id >= 0 && id <= nsched) {
        struct sched_slot *s = &slots[id];     /* BUG: should be id - 1 */
        struct sched_slot upd;
        upd.events = s->events + 1;
        upd.last_ns = now_ns();
        upd.last_tag = (uint64_t)argv[0];
        upd.magic = SLOT_MAGIC;
        memcpy(s, &upd, sizeof(upd));
    }

    if (enif_get_local_pid(env, argv[1], &to)) {
        ERL_NIF_TERM msg = enif_make_tuple5(env, atom_trace, argv[2], argv[0],
                                            argv[3], argv[4]);
        enif_send(env, &to, NULL, msg);
    }
    return atom_ok;
}

/* counts() -> [EventsOnScheduler1, ..., EventsOnSchedulerN] */
static ERL_NIF_TERM counts(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ERL_NIF_TERM list = enif_make_list(env, 0);
    int i;
    (void)argc;
    (void)argv;
    for (i = nsched - 1; i >= 0; i--)
        list = enif_make_list_cell(env, enif_make_uint64(env, slots[i].events), list);
    return list;
}

static ErlNifFunc nif_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0},
    {"counts", 0, counts, 0}
};

ERL_NIF_INIT(ext_schedid, nif_funcs, load, NULL, NULL, unload)
