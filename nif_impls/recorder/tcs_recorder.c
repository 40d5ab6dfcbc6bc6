/*
 * The recording tracer.
 *
 * Every erl_tracer callback it provides reports its own invocation
 * {tcs_rec, Seq, Callback, Args, Result} to the process in its tracer state,
 * and enabled callbacks answer what the scenario chose per tag.  load_info is
 * a list of answer tables: {Tag, Answer} entries (with {default, Answer} for
 * the other tags) make the table of every tracer state, and {StatePid,
 * [{Tag, Answer}]} a table of its own for one tracer state, so that trace
 * sessions sharing this module (one callback set) answer differently.
 *
 * With {'$collector', Pid} in load_info, every report goes to that collector
 * instead, so that a tracer state is free to be any process, even one that has
 * died: the runtime never looks at the state, and the recorder goes on
 * recording.  Callbacks whose tracee is the collector itself are not reported
 * then: a report is a message to the collector, and a collector traced with
 * 'receive' (erlang:trace(all, ...) traces every process for a moment) would
 * otherwise report its own reports without end.
 *
 * Seq is the runtime's strictly monotonic unique integer: one order across
 * every recorder variant loaded in the node, and the harness stamps its own
 * control lines from the same counter (erlang:unique_integer([monotonic])).
 *
 * Which optional callbacks exist is decided by the NIF function table, so
 * each callback set is its own library: compile with
 *   -DTCS_MODULE=<module name> -DTCS_CALLBACKS=<bit mask> -I<build>/generated
 * where bit i of the mask provides the optional callback of bit i in the
 * generated tcs_tags.h: the model's order (tcsref tags), which the driver
 * (driver/tcs_driver/recorder.py) reads from the same table.
 */
#include <erl_nif.h>

#include "tcs_tags.h"   /* generated in the build directory (cmake/tcs_tags.cmake) */

#ifndef TCS_MODULE
#error "define TCS_MODULE, the Erlang module name of this variant"
#endif
#ifndef TCS_CALLBACKS
#error "define TCS_CALLBACKS, the bit mask of optional callbacks provided"
#endif

#define MAX_ANSWERS 64
#define MAX_STATES 16

/* What enabled callbacks answer, per tag. */
typedef struct {
    ERL_NIF_TERM tags[MAX_ANSWERS];     /* atoms: valid in every env */
    ERL_NIF_TERM answers[MAX_ANSWERS];
    int count;
    ERL_NIF_TERM default_answer;
} Answers;

typedef struct {
    Answers common;                     /* for a tracer state without a table */
    ErlNifPid state_pids[MAX_STATES];
    Answers state_answers[MAX_STATES];
    int states;
    ErlNifPid collector;                /* where reports go, when has_collector */
    int has_collector;
} Recorder;

/* Adds one {Tag, Answer} entry; 0 if it is not one. */
static int add_answer(ErlNifEnv *env, Answers *a, ERL_NIF_TERM entry)
{
    const ERL_NIF_TERM *pair;
    int arity;

    if (!enif_get_tuple(env, entry, &arity, &pair) || arity != 2
        || !enif_is_atom(env, pair[0]) || !enif_is_atom(env, pair[1])
        || a->count == MAX_ANSWERS)
        return 0;
    if (enif_is_identical(pair[0], enif_make_atom(env, "default"))) {
        a->default_answer = pair[1];
    } else {
        a->tags[a->count] = pair[0];
        a->answers[a->count] = pair[1];
        a->count++;
    }
    return 1;
}

static void init_answers(ErlNifEnv *env, Answers *a)
{
    a->count = 0;
    a->default_answer = enif_make_atom(env, "trace");
}

/* A {StatePid, [{Tag, Answer}]} entry; 0 if it is not one. */
static int add_state_table(ErlNifEnv *env, Recorder *r, ERL_NIF_TERM entry)
{
    const ERL_NIF_TERM *pair;
    int arity;
    ERL_NIF_TERM head, tail;
    Answers *a;

    if (!enif_get_tuple(env, entry, &arity, &pair) || arity != 2 || r->states == MAX_STATES
        || !enif_get_local_pid(env, pair[0], &r->state_pids[r->states]))
        return 0;
    a = &r->state_answers[r->states];
    init_answers(env, a);
    tail = pair[1];
    while (enif_get_list_cell(env, tail, &head, &tail))
        if (!add_answer(env, a, head))
            return 0;
    r->states++;
    return enif_is_empty_list(env, tail);
}

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    Recorder *r = enif_alloc(sizeof *r);
    ERL_NIF_TERM head, tail = info;
    ErlNifPid pid;
    const ERL_NIF_TERM *pair;
    int arity;

    init_answers(env, &r->common);
    r->states = 0;
    r->has_collector = 0;
    while (enif_get_list_cell(env, tail, &head, &tail)) {
        int is_pair = enif_get_tuple(env, head, &arity, &pair) && arity == 2;
        int is_state = is_pair && enif_get_local_pid(env, pair[0], &pid);
        int is_collector = is_pair && enif_is_identical(pair[0], enif_make_atom(env, "$collector"));
        int ok = is_collector ? (r->has_collector = enif_get_local_pid(env, pair[1], &r->collector))
                 : is_state   ? add_state_table(env, r, head)
                              : add_answer(env, &r->common, head);
        if (!ok) {
            enif_free(r);
            return 1;
        }
    }
    *priv = r;
    return 0;
}

static void unload(ErlNifEnv *env, void *priv)
{
    (void)env;
    enif_free(priv);
}

/* The answer to enabled*(Tag, State, _): State's own table if it has one. */
static ERL_NIF_TERM answer_for(ErlNifEnv *env, const Recorder *r, ERL_NIF_TERM tag, ERL_NIF_TERM state)
{
    const Answers *a = &r->common;
    ErlNifPid pid;

    if (enif_get_local_pid(env, state, &pid))
        for (int i = 0; i < r->states; i++)
            if (enif_compare_pids(&pid, &r->state_pids[i]) == 0)
                a = &r->state_answers[i];
    for (int i = 0; i < a->count; i++)
        if (enif_is_identical(a->tags[i], tag))
            return a->answers[i];
    return a->default_answer;
}

/* Sends the record of this invocation to the collector (or the tracer state,
 * if it is a pid), unless the tracee is the collector itself. */
static void report(ErlNifEnv *env, const char *callback, int argc,
                   const ERL_NIF_TERM argv[], ERL_NIF_TERM result)
{
    Recorder *r = enif_priv_data(env);
    ErlNifPid to;
    ErlNifEnv *msg_env;
    ERL_NIF_TERM args[5], msg;

    if (r->has_collector) {
        if (enif_is_identical(argv[2], enif_make_pid(env, &r->collector)))
            return;
        to = r->collector;
    } else if (!enif_get_local_pid(env, argv[1], &to)) {
        return;
    }
    msg_env = enif_alloc_env();
    for (int i = 0; i < argc; i++)
        args[i] = enif_make_copy(msg_env, argv[i]);
    msg = enif_make_tuple5(msg_env, enif_make_atom(msg_env, "tcs_rec"),
                           enif_make_unique_integer(msg_env, ERL_NIF_UNIQUE_MONOTONIC),
                           enif_make_atom(msg_env, callback),
                           enif_make_list_from_array(msg_env, args, argc),
                           enif_make_copy(msg_env, result));
    enif_send(env, &to, msg_env, msg);
    enif_free_env(msg_env);
}

/* -DTCS_SLOW_US=N: a slow tracer, N microseconds in every enabled callback after it has
 * reported (the harness's tests: nothing may be lost between an enabled call and its trace). */
#ifdef TCS_SLOW_US
#include <unistd.h>
#define SLOW() usleep(TCS_SLOW_US)
#else
#define SLOW() ((void)0)
#endif

#define ENABLED_CALLBACK(name)                                                \
    static ERL_NIF_TERM name(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) \
    {                                                                         \
        ERL_NIF_TERM answer = answer_for(env, enif_priv_data(env), argv[0], argv[1]); \
        report(env, #name, argc, argv, answer);                               \
        SLOW();                                                               \
        return answer;                                                        \
    }

#define TRACE_CALLBACK(name)                                                  \
    static ERL_NIF_TERM name(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) \
    {                                                                         \
        ERL_NIF_TERM ok = enif_make_atom(env, "ok");                          \
        report(env, #name, argc, argv, ok);                                   \
        return ok;                                                            \
    }

/* The optional callbacks with their bit in TCS_CALLBACKS, X(name, bit): generated by the
 * build from the model's tag table (tcsref tags), so the bit order cannot drift. */
#define DEFINE_ENABLED(name, bit) __attribute__((unused)) ENABLED_CALLBACK(name)
#define DEFINE_TRACE(name, bit) __attribute__((unused)) TRACE_CALLBACK(name)
ENABLED_CALLBACK(enabled)
TRACE_CALLBACK(trace)
TCS_OPTIONAL_ENABLED(DEFINE_ENABLED)
TCS_OPTIONAL_TRACE(DEFINE_TRACE)

#define PROVIDED(bit) ((TCS_CALLBACKS >> (bit)) & 1)
#define TABLE_ENTRY(name, arity, bit) {#name, arity, PROVIDED(bit) ? name : NULL, 0},
#define ENTRY_3(name, bit) TABLE_ENTRY(name, 3, bit)
#define ENTRY_5(name, bit) TABLE_ENTRY(name, 5, bit)

static ErlNifFunc all_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0},
    TCS_OPTIONAL_ENABLED(ENTRY_3)
    TCS_OPTIONAL_TRACE(ENTRY_5)
};

/* The function table proper: only the entries whose function is provided. */
static ErlNifFunc funcs[2 + __builtin_popcount(TCS_CALLBACKS)];

static int load_variant(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    return load(env, priv, info);
}

/* A new instance of the module loaded while the old one is still there (code:load_file/1 of a
 * tracer in use: the `tracer reload` step): it gets tables of its own; the old instance keeps
 * its own until it is purged. */
static int upgrade_variant(ErlNifEnv *env, void **priv, void **old_priv, ERL_NIF_TERM info)
{
    (void)old_priv;
    return load(env, priv, info);
}

#define TCS_INIT(module) ERL_NIF_INIT(module, funcs, load_variant, NULL, upgrade_variant, unload)
TCS_INIT(TCS_MODULE)

/* Fills funcs[] before the runtime reads it: nif_init runs first. */
__attribute__((constructor)) static void select_funcs(void)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof all_funcs / sizeof all_funcs[0]; i++)
        if (all_funcs[i].fptr != NULL)
            funcs[n++] = all_funcs[i];
}
