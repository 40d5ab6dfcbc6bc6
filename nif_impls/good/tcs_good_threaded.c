/*
 * A correct multi-threaded tracer: what tcs_tracer_base.h does, plus the
 * shared bookkeeping a real tracer keeps, each piece synchronised the usual
 * way: a total in a C11 atomic, one counter per scheduler in an array sized
 * from the real scheduler count (indexed by scheduler_id - 1, with a slot of
 * its own for scheduler_id 0, a dirty scheduler), and a ring of the last tags
 * under a mutex.  It must pass every check.
 */
#include <erl_nif.h>
#include <stdatomic.h>

#define TCS_MODULE tcs_good_threaded
#define TCS_TRACE_HOOK(env, argv) keep_books(env, argv)
#define TCS_LOAD load_books
static void keep_books(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
static int load_books(ErlNifEnv *env, void **priv, ERL_NIF_TERM info);
#include "tcs_tracer_base.h"

#define RING 64

typedef struct {
    atomic_ulong total;
    int schedulers;
    atomic_ulong *per_scheduler;   /* [0]: scheduler_id 0 (dirty); [i]: scheduler i */
    ErlNifMutex *ring_lock;
    ERL_NIF_TERM ring[RING];       /* tag atoms: valid in every environment */
    unsigned ring_next;
} Books;

/* Guarantees: priv is a Books with every counter zero and its mutex made. */
static int load_books(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    ErlNifSysInfo sys;
    Books *books = enif_alloc(sizeof *books);
    (void)env;
    (void)info;
    enif_system_info(&sys, sizeof sys);
    atomic_init(&books->total, 0);
    books->schedulers = sys.scheduler_threads;
    books->per_scheduler = enif_alloc(sizeof(atomic_ulong) * (size_t)(sys.scheduler_threads + 1));
    for (int i = 0; i <= sys.scheduler_threads; i++)
        atomic_init(&books->per_scheduler[i], 0);
    books->ring_lock = enif_mutex_create("tcs_good_threaded_ring");
    books->ring_next = 0;
    *priv = books;
    return books->ring_lock == NULL;
}

/* Guarantees: counts the event in the total and its scheduler's counter, and keeps its tag in the ring. */
static void keep_books(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    Books *books = enif_priv_data(env);
    ERL_NIF_TERM value;
    int id;
    atomic_fetch_add(&books->total, 1);
    if (enif_get_map_value(env, argv[4], enif_make_atom(env, "scheduler_id"), &value)
        && enif_get_int(env, value, &id) && id >= 0 && id <= books->schedulers)
        atomic_fetch_add(&books->per_scheduler[id], 1);
    if (enif_is_atom(env, argv[0])) {
        enif_mutex_lock(books->ring_lock);
        books->ring[books->ring_next++ % RING] = argv[0];
        enif_mutex_unlock(books->ring_lock);
    }
}
