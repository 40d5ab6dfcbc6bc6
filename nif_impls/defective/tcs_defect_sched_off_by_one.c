/*
 * Defect: trace* counts events per scheduler in one block sized from the
 * real scheduler count, the counters followed by the pointer to the totals
 * they feed, and indexes the counters by the Opts scheduler_id as it comes
 * (1..N) instead of scheduler_id - 1.  Right on every scheduler but the
 * highest, where the count overwrites the pointer: the next use of it crashes
 * the node (SIGSEGV).  scheduler_id 0 (a dirty scheduler) is counted in slot
 * 0, as the author meant.
 * Flagged by: trace_accepts, stress
 * May also fail: live
 * live fails when one of its traced processes happens to run on the highest
 * scheduler with scheduler_id asked for.
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_sched_off_by_one
#define TCS_TRACE_HOOK(env, argv) count_per_scheduler(env, argv[4])
#define TCS_LOAD load_counters
static void count_per_scheduler(ErlNifEnv *env, ERL_NIF_TERM opts);
static int load_counters(ErlNifEnv *env, void **priv, ERL_NIF_TERM info);
#include "../good/tcs_tracer_base.h"

typedef struct {
    unsigned long events;
} Totals;

/* Guarantees: priv is one block: scheduler_threads counters, then a Totals pointer. */
static int load_counters(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    ErlNifSysInfo sys;
    unsigned long *block;
    (void)env;
    (void)info;
    enif_system_info(&sys, sizeof sys);
    block = enif_alloc(sizeof(unsigned long) * (size_t)sys.scheduler_threads + sizeof(Totals *));
    for (int i = 0; i < sys.scheduler_threads; i++)
        block[i] = 0;
    *(Totals **)(block + sys.scheduler_threads) = enif_alloc(sizeof(Totals));
    (*(Totals **)(block + sys.scheduler_threads))->events = 0;
    *priv = block;
    return 0;
}

/* Guarantees: counts the event (not thread-safe either: a race on a counter only miscounts). */
static void count_per_scheduler(ErlNifEnv *env, ERL_NIF_TERM opts)
{
    ErlNifSysInfo sys;
    unsigned long *counters = enif_priv_data(env);
    int id;
    ERL_NIF_TERM value;
    if (!enif_get_map_value(env, opts, enif_make_atom(env, "scheduler_id"), &value)
        || !enif_get_int(env, value, &id))
        return;
    enif_system_info(&sys, sizeof sys);
    counters[id] = 0x10;                                        /* should be id - 1: the defect */
    (*(Totals **)(counters + sys.scheduler_threads))->events++;  /* the pointer, overwritten on the highest */
}
