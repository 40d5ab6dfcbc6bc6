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
 */
#include <erl_nif.h>
#include <string.h>

/* A process blocked in await_turn/1, and the poke generation it started waiting in. */
typedef struct {
    ErlNifPid pid;
    unsigned long generation;
} Waiter;

typedef struct {
    ErlNifMutex *lock;
    ErlNifCond *changed;
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
    enif_cond_destroy(g->changed);
    enif_mutex_destroy(g->lock);
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
    memset(g, 0, sizeof *g);
    g->lock = enif_mutex_create("tcs_gate");
    g->changed = enif_cond_create("tcs_gate");
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
    enif_mutex_lock(g->lock);
    enif_clear_env(g->step_env);
    g->step = enif_make_copy(g->step_env, argv[2]);
    g->turn = pid;
    g->has_turn = 1;
    g->has_result = 0;
    enif_cond_broadcast(g->changed);
    enif_mutex_unlock(g->lock);
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
    enif_mutex_lock(g->lock);
    generation = g->generation;
    if (g->nwaiters == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 16;
        g->waiters = enif_realloc(g->waiters, g->cap * sizeof *g->waiters);
    }
    g->waiters[g->nwaiters++] = (Waiter){self, generation};
    while (!(g->has_turn && enif_compare_pids(&g->turn, &self) == 0)
           && generation == g->generation)
        enif_cond_wait(g->changed, g->lock);
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
    enif_mutex_unlock(g->lock);
    return step;
}

/* finish(Gate, Result) -> ok: publishes the result of the step just done. */
static ERL_NIF_TERM gate_finish(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    (void)argc;
    if (!g)
        return enif_make_badarg(env);
    enif_mutex_lock(g->lock);
    g->result = enif_make_copy(g->step_env, argv[1]);
    g->has_result = 1;
    enif_cond_broadcast(g->changed);
    enif_mutex_unlock(g->lock);
    return enif_make_atom(env, "ok");
}

/* poke(Gate) -> ok: makes every process waiting in await_turn/1 return poke. */
static ERL_NIF_TERM gate_poke(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    (void)argc;
    if (!g)
        return enif_make_badarg(env);
    enif_mutex_lock(g->lock);
    g->generation++;
    enif_cond_broadcast(g->changed);
    enif_mutex_unlock(g->lock);
    return enif_make_atom(env, "ok");
}

/* waiting(Gate, Pid) -> boolean(): Pid waits in await_turn/1 and has since the last poke. */
static ERL_NIF_TERM gate_waiting(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ErlNifPid pid;
    int found = 0;
    (void)argc;
    if (!g || !enif_get_local_pid(env, argv[1], &pid))
        return enif_make_badarg(env);
    enif_mutex_lock(g->lock);
    for (size_t i = 0; i < g->nwaiters && !found; i++)
        found = enif_compare_pids(&g->waiters[i].pid, &pid) == 0 && g->waiters[i].generation == g->generation;
    enif_mutex_unlock(g->lock);
    return enif_make_atom(env, found ? "true" : "false");
}

/* result(Gate) -> {ok, Result} | none: the result of the last step, if published. */
static ERL_NIF_TERM gate_result(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    Gate *g = get_gate(env, argv[0]);
    ERL_NIF_TERM r;
    (void)argc;
    if (!g)
        return enif_make_badarg(env);
    enif_mutex_lock(g->lock);
    r = g->has_result
        ? enif_make_tuple2(env, enif_make_atom(env, "ok"), enif_make_copy(env, g->result))
        : enif_make_atom(env, "none");
    enif_mutex_unlock(g->lock);
    return r;
}

static ErlNifFunc gate_funcs[] = {
    {"new", 0, gate_new, 0},
    {"give", 3, gate_give, 0},
    {"await_turn", 1, gate_await_turn, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"finish", 2, gate_finish, 0},
    {"result", 1, gate_result, 0},
    {"poke", 1, gate_poke, 0},
    {"waiting", 2, gate_waiting, 0},
};

ERL_NIF_INIT(tcs_gate, gate_funcs, load, NULL, NULL, NULL)
