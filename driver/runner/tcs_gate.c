/*
 * tcs_gate: hands steps to scenario processes without messages.
 *
 * A traced process that waits for its next step in `receive` would produce
 * 'receive' trace events the scenario never asked for, and a busy-wait loop
 * makes the runtime probe `trace_status` on every reschedule.  So a puppet
 * waits here instead, inside a dirty I/O NIF, on a condition variable: the
 * runner gives it a step (a term) and later waits for the step's result.
 *
 * The gate also knows who waits in it since the last poke (waiting/2): a
 * puppet counts only once it is back inside the NIF, which is after every
 * scheduling event of its way out and back in has been traced.  The runner
 * settles on that before it collects a job's records, so that no record of
 * that way (an enabled call whose trace call has yet to come) is cut off.
 *
 * The runner waits for a step's result (await_result/2) and for a puppet to
 * be back in the gate (await_waiting/3) here too, woken by the change itself
 * rather than by polling: each poll cost a timer:sleep(1), a millisecond or
 * more per step (far more on a loaded machine).  Those waits need a timeout
 * (a stuck step must not stop the runner), which ErlNifCond has not, so the
 * gate's lock and condition are POSIX ones on the monotonic clock.
 */
#define _POSIX_C_SOURCE 200809L
#include <erl_nif.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

/* A process blocked in await_turn/1, and the poke generation it started waiting in. */
typedef struct {
    ErlNifPid pid;
    unsigned long generation;
} Waiter;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;  /* on CLOCK_MONOTONIC */
    ErlNifPid turn;          /* whose step it is; valid when has_turn */
    int has_turn;
    unsigned long generation; /* bumped by poke/1 */
    ErlNifEnv *step_env;     /* holds step and result */
    ERL_NIF_TERM step;
    ERL_NIF_TERM result;
    int has_result;
    Waiter *waiters;         /* enif_alloc'd; nwaiters of cap in use */
    size_t nwaiters, cap;
} Gate;

typedef struct {
    ErlNifResourceType *gate_type;
} GatePriv;

static void gate_dtor(ErlNifEnv *env, void *obj)
{
    Gate *g = obj;
    (void)env;
    pthread_cond_destroy(&g->changed);
    pthread_mutex_destroy(&g->lock);
    enif_free_env(g->step_env);
    enif_free(g->waiters);
}

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    GatePriv *p = enif_alloc(sizeof *p);
    (void)info;
    p->gate_type = enif_open_resource_type(env, NULL, "tcs_gate", gate_dtor,
                                           ERL_NIF_RT_CREATE, NULL);
    *priv = p;
    return p->gate_type == NULL;
}

static Gate *get_gate(ErlNifEnv *env, ERL_NIF_TERM t)
{
    GatePriv *p = enif_priv_data(env);
    void *obj;
    return enif_get_resource(env, t, p->gate_type, &obj) ? obj : NULL;
}

/* new() -> Gate: a gate with no turn given. */
static ERL_NIF_TERM gate_new(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    GatePriv *p = enif_priv_data(env);
    Gate *g = enif_alloc_resource(p->gate_type, sizeof *g);
    ERL_NIF_TERM t;
    (void)argc; (void)argv;
    pthread_condattr_t monotonic;
    memset(g, 0, sizeof *g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&g->changed, &monotonic);
    pthread_condattr_destroy(&monotonic);
    g->step_env = enif_alloc_env();
    t = enif_make_resource(env, g);
    enif_release_resource(g);
    return t;
}

/* give(Gate, Pid, Step) -> ok: Step becomes Pid's turn; the previous result is dropped. */
static ERL_NIF_TERM gate_give(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ErlNifPid pid;
    (void)argc;
    if (!g || !enif_get_local_pid(env, argv[1], &pid))
        return enif_make_badarg(env);
    pthread_mutex_lock(&g->lock);
    enif_clear_env(g->step_env);
    g->step = enif_make_copy(g->step_env, argv[2]);
    g->turn = pid;
    g->has_turn = 1;
    g->has_result = 0;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
    return enif_make_atom(env, "ok");
}

/* await_turn(Gate) -> Step | poke: blocks the caller until a step is given to
 * it, or until poke/1 is called.  A poke lets a waiting process return to the
 * emulator, so that exit signals received meanwhile take effect. */
static ERL_NIF_TERM gate_await_turn(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ErlNifPid self;
    ERL_NIF_TERM step;
    unsigned long generation;
    (void)argc;
    if (!g || !enif_self(env, &self))
        return enif_make_badarg(env);
    pthread_mutex_lock(&g->lock);
    generation = g->generation;
    if (g->nwaiters == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 16;
        g->waiters = enif_realloc(g->waiters, g->cap * sizeof *g->waiters);
    }
    g->waiters[g->nwaiters++] = (Waiter){self, generation};
    pthread_cond_broadcast(&g->changed);   /* for await_waiting/3 */
    while (!(g->has_turn && enif_compare_pids(&g->turn, &self) == 0)
           && generation == g->generation)
        pthread_cond_wait(&g->changed, &g->lock);
    for (size_t i = 0; i < g->nwaiters; i++)
        if (enif_compare_pids(&g->waiters[i].pid, &self) == 0) {
            g->waiters[i] = g->waiters[--g->nwaiters];
            break;
        }
    if (generation != g->generation) {
        step = enif_make_atom(env, "poke");
    } else {
        g->has_turn = 0;
        step = enif_make_copy(env, g->step);
    }
    pthread_mutex_unlock(&g->lock);
    return step;
}

/* finish(Gate, Result) -> ok: publishes the result of the step just done. */
static ERL_NIF_TERM gate_finish(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    (void)argc;
    if (!g)
        return enif_make_badarg(env);
    pthread_mutex_lock(&g->lock);
    g->result = enif_make_copy(g->step_env, argv[1]);
    g->has_result = 1;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
    return enif_make_atom(env, "ok");
}

/* poke(Gate) -> ok: makes every process waiting in await_turn/1 return poke. */
static ERL_NIF_TERM gate_poke(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    (void)argc;
    if (!g)
        return enif_make_badarg(env);
    pthread_mutex_lock(&g->lock);
    g->generation++;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
    return enif_make_atom(env, "ok");
}

/* Guarantees: true iff pid waits in await_turn/1 since the last poke (the caller holds the lock). */
static int is_waiting(const Gate *g, ErlNifPid *pid)
{
    for (size_t i = 0; i < g->nwaiters; i++)
        if (enif_compare_pids(&g->waiters[i].pid, pid) == 0 && g->waiters[i].generation == g->generation)
            return 1;
    return 0;
}

/* Guarantees: the monotonic time `micros` microseconds from now, as pthread_cond_timedwait takes it. */
static struct timespec deadline_in(long long micros)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long long nanos = t.tv_nsec + (micros % 1000000) * 1000;
    t.tv_sec += (time_t)(micros / 1000000 + nanos / 1000000000);
    t.tv_nsec = (long)(nanos % 1000000000);
    return t;
}

/* waiting(Gate, Pid) -> boolean(): Pid waits in await_turn/1 and has since the last poke. */
static ERL_NIF_TERM gate_waiting(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ErlNifPid pid;
    int found;
    (void)argc;
    if (!g || !enif_get_local_pid(env, argv[1], &pid))
        return enif_make_badarg(env);
    pthread_mutex_lock(&g->lock);
    found = is_waiting(g, &pid);
    pthread_mutex_unlock(&g->lock);
    return enif_make_atom(env, found ? "true" : "false");
}

/* await_waiting(Gate, Pid, TimeoutUs) -> boolean(): waits (on a dirty I/O scheduler) until Pid waits
 * in await_turn/1 since the last poke, at most TimeoutUs microseconds; whether it does. */
static ERL_NIF_TERM gate_await_waiting(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ErlNifPid pid;
    ErlNifSInt64 micros;
    struct timespec until;
    int found, timed_out = 0;
    (void)argc;
    if (!g || !enif_get_local_pid(env, argv[1], &pid) || !enif_get_int64(env, argv[2], &micros) || micros < 0)
        return enif_make_badarg(env);
    until = deadline_in(micros);
    pthread_mutex_lock(&g->lock);
    while (!(found = is_waiting(g, &pid)) && !timed_out)
        timed_out = pthread_cond_timedwait(&g->changed, &g->lock, &until) != 0;
    pthread_mutex_unlock(&g->lock);
    return enif_make_atom(env, found ? "true" : "false");
}

/* await_result(Gate, TimeoutMs) -> {ok, Result} | timeout: waits (on a dirty I/O scheduler) until the
 * result of the step given last is published, at most TimeoutMs milliseconds. */
static ERL_NIF_TERM gate_await_result(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ErlNifSInt64 millis;
    struct timespec until;
    int timed_out = 0;
    ERL_NIF_TERM r;
    (void)argc;
    if (!g || !enif_get_int64(env, argv[1], &millis) || millis < 0)
        return enif_make_badarg(env);
    until = deadline_in(millis * 1000);
    pthread_mutex_lock(&g->lock);
    while (!g->has_result && !timed_out)
        timed_out = pthread_cond_timedwait(&g->changed, &g->lock, &until) != 0;
    r = g->has_result
        ? enif_make_tuple2(env, enif_make_atom(env, "ok"), enif_make_copy(env, g->result))
        : enif_make_atom(env, "timeout");
    pthread_mutex_unlock(&g->lock);
    return r;
}

/* state(Gate) -> {Generation, Turn, HasResult, [{Pid, Generation}]}: what the gate holds now (the
 * watchdog's report of a step that overran: who has the turn, who waits in it since which poke). */
static ERL_NIF_TERM gate_state(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ERL_NIF_TERM waiters, turn, state;
    (void)argc;
    if (!g)
        return enif_make_badarg(env);
    pthread_mutex_lock(&g->lock);
    waiters = enif_make_list(env, 0);
    for (size_t i = 0; i < g->nwaiters; i++)
        waiters = enif_make_list_cell(env, enif_make_tuple2(env, enif_make_pid(env, &g->waiters[i].pid),
                                                            enif_make_ulong(env, g->waiters[i].generation)),
                                      waiters);
    turn = g->has_turn ? enif_make_pid(env, &g->turn) : enif_make_atom(env, "none");
    state = enif_make_tuple4(env, enif_make_ulong(env, g->generation), turn,
                             enif_make_atom(env, g->has_result ? "true" : "false"), waiters);
    pthread_mutex_unlock(&g->lock);
    return state;
}

static ErlNifFunc gate_funcs[] = {
    {"new", 0, gate_new, 0},
    {"give", 3, gate_give, 0},
    {"await_turn", 1, gate_await_turn, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"finish", 2, gate_finish, 0},
    {"poke", 1, gate_poke, 0},
    {"waiting", 2, gate_waiting, 0},
    {"await_waiting", 3, gate_await_waiting, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"await_result", 2, gate_await_result, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"state", 1, gate_state, 0},
};

ERL_NIF_INIT(tcs_gate, gate_funcs, load, NULL, NULL, NULL)
