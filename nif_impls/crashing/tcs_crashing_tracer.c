/*
 * A deliberately broken tracer: enabled/3 aborts the emulator on the first
 * send event.  The driver's tests use it to show that a crashing tracer ends
 * its own node only, and that the case is reported as a crash with what the
 * node printed last.
 */
#include <erl_nif.h>
#include <stdlib.h>

static ERL_NIF_TERM enabled(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc;
    if (enif_is_identical(argv[0], enif_make_atom(env, "send")))
        abort();
    return enif_make_atom(env, "trace");
}

static ERL_NIF_TERM trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc;
    (void)argv;
    return enif_make_atom(env, "ok");
}

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info)
{
    (void)env;
    (void)priv;
    (void)info;
    return 0;
}

static ErlNifFunc funcs[] = {
    {"enabled", 3, enabled, 0},
    {"trace", 5, trace, 0},
};

ERL_NIF_INIT(tcs_crashing_tracer, funcs, load, NULL, NULL, NULL)
