/*
 * ext_slow -- forwarding tracer module (erl_tracer behaviour, NIF back end)
 * that sends {trace, Tracee, Tag, TraceTerm, Opts} to the tracer state (a
 * pid), "throttling" itself by busy-waiting.
 * DEFECTIVE (stalls the scheduler): trace/5 spins on clock_gettime for about
 * 50 ms per call and enabled/3 for about 0.1 ms per call, on the scheduler
 * thread of the traced process (these callbacks run inline in the tracee and
 * are meant to be as fast as possible; a NIF should return within ~1 ms).
 * Every event is delivered correctly, but each traced event blocks a whole
 * scheduler for 50 ms, starving every other process on it.
 */
#include <erl_nif.h>
#include <time.h>

#define TRACE_SPIN_NS   (50L * 1000L * 1000L)  /* 50 ms  */
#define ENABLED_SPIN_NS (100L * 1000L)          /* 0.1 ms */

static ERL_NIF_TERM atom_trace, atom_discard, atom_remove, atom_ok,
    atom_trace_status;

static void spin_ns(long ns)
{
    struct timespec start, now;
    long elapsed;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        clock_gettime(CLOCK_MONOTONIC, &now);
        elapsed = (now.tv_sec - start.tv_sec) * 1000000000L
            + (now.tv_nsec - start.tv_nsec);
    } while (elapsed < ns);
}

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info)
{
    (void)load_info;
    atom_trace = enif_make_atom(env, "trace");
    atom_discard = enif_make_atom(env, "discard");
    atom_remove = enif_make_atom(env, "remove");
    atom_ok = enif_make_atom(env, "ok");
    atom_trace_status = enif_make_atom(env, "trace_status");
    *priv_data = NULL;
    return 0;
}

/* argv: TraceTag, TracerState, Tracee */
static ERL_NIF_TERM enabled(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    ErlNifPid to;
    (void)argc;
    spin_ns(ENABLED_SPIN_NS);
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
    (void)argc;
    spin_ns(TRACE_SPIN_NS);
    if (enif_get_local_pid(env, argv[1], &to)) {
        ERL_NIF_TERM msg = enif_make_tuple5(env, atom_trace, argv[2], argv[0],
                                            argv[3], argv[4]);
        enif_send(env, &to, NULL, msg);
    }
    return atom_ok;
}

static ErlNifFunc nif_funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0}
};

ERL_NIF_INIT(ext_slow, nif_funcs, load, NULL, NULL, NULL)
