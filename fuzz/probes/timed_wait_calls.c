/*
 * timed_wait_calls: the tracer of the probe timed_wait_calls.erl, a NIF tracer that records
 * the order in which the runtime calls it, not the order in which trace messages arrive.
 * Each trace/5 call of a 'receive' event takes the next number of an atomic counter and keeps
 * it with the event's term, the monotonic time of the call and the name of the thread that
 * made it (the scheduler: "1_scheduler", ...); take/0 hands the records over and starts anew.
 *
 *   gcc -shared -fPIC -O2 -I/usr/lib/erlang/usr/include -o timed_wait_calls.so timed_wait_calls.c
 */
#define _GNU_SOURCE
#include <erl_nif.h>
#include <pthread.h>
#include <stdatomic.h>

#define MAX_RECORDS 64

typedef struct {
    ErlNifEnv *terms;            /* owns the recorded terms */
    ERL_NIF_TERM what[MAX_RECORDS];
    ErlNifTime at[MAX_RECORDS];
    char thread[MAX_RECORDS][16];
    atomic_int next;
} Calls;

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    (void)env; (void)info;
    Calls *c = enif_alloc(sizeof *c);
    c->terms = enif_alloc_env();
    atomic_init(&c->next, 0);
    *priv = c;
    return 0;
}

static ERL_NIF_TERM enabled(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc; (void)argv;
    return enif_make_atom(env, "trace");
}

/* Only the probe's waiter is traced, for 'receive' only: one round's calls come from one
 * process, so no two run at once; the counter still gives each its own slot. */
static ERL_NIF_TERM trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc;
    Calls *c = enif_priv_data(env);
    int i = atomic_fetch_add(&c->next, 1);
    if (i < MAX_RECORDS) {
        c->at[i] = enif_monotonic_time(ERL_NIF_NSEC);
        c->what[i] = enif_make_copy(c->terms, argv[3]);
        if (pthread_getname_np(pthread_self(), c->thread[i], sizeof c->thread[i]) != 0)
            c->thread[i][0] = '\0';
    }
    return enif_make_atom(env, "ok");
}

/* [{Seq, Term, MonotonicNs, ThreadName}] in call order; then the records start anew. */
static ERL_NIF_TERM take(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc; (void)argv;
    Calls *c = enif_priv_data(env);
    int n = atomic_load(&c->next);
    ERL_NIF_TERM list = enif_make_list(env, 0);
    for (int i = (n < MAX_RECORDS ? n : MAX_RECORDS) - 1; i >= 0; i--)
        list = enif_make_list_cell(env,
            enif_make_tuple4(env, enif_make_int(env, i), enif_make_copy(env, c->what[i]),
                             enif_make_int64(env, c->at[i]),
                             enif_make_string(env, c->thread[i], ERL_NIF_LATIN1)),
            list);
    enif_clear_env(c->terms);
    atomic_store(&c->next, 0);
    return list;
}

static ErlNifFunc funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0},
    {"take", 0, take, 0},
};

ERL_NIF_INIT(timed_wait_calls, funcs, load, NULL, NULL, NULL)
