/*
 * tcs_nif: the fixture module whose functions are NIFs (cases/README.md "The traced functions";
 * ref/vocab/fixture.c, ref/events/calls.c): trace_nif_SUITE's targets, and dirty work in a
 * traced process.  Each returns its argument, or raises it (check/1); dirty_cpu/1,
 * dirty_io/1 and dirty_wait/1 run on a dirty CPU or I/O scheduler, so a process traced for
 * running is scheduled out of its scheduler and in on the dirty one around the call
 * (RUN-DIRTY-NIF); dirty_wait(Ms) stays there Ms milliseconds (OTP-19799's process on a dirty
 * scheduler, C-611); sleep(Ms) as long on its normal scheduler (trace_SUITE's long_schedule, C-730).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <erl_nif.h>
#include <string.h>
#include <time.h>

/* id/1, dirty_cpu/1, dirty_io/1: the argument at once. */
static ERL_NIF_TERM nif_id(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)env;
    (void)argc;
    return argv[0];
}

/* check(ok) -> ok; check(X) raises error:X, as tcs_target:check/1 does. */
static ERL_NIF_TERM nif_check(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    char atom[3];
    (void)argc;
    if (enif_get_atom(env, argv[0], atom, sizeof atom, ERL_NIF_LATIN1) > 0 && strcmp(atom, "ok") == 0)
        return argv[0];
    return enif_raise_exception(env, argv[0]);
}

/* dirty_wait(Ms) -> Ms after Ms milliseconds (1 to 1000) on the dirty I/O scheduler, sleep(Ms) the
 * same on the process's normal scheduler, which it holds uninterrupted that long (a long_schedule
 * of the system monitor, C-730); any other argument at once. */
static ERL_NIF_TERM nif_sleep(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    int ms;
    (void)argc;
    if (enif_get_int(env, argv[0], &ms) && ms > 0 && ms <= 1000) {
        struct timespec pause = {ms / 1000, (long)(ms % 1000) * 1000000L};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
    return argv[0];
}

static ErlNifFunc nif_funcs[] = {
    {"id", 1, nif_id, 0},
    {"check", 1, nif_check, 0},
    {"dirty_cpu", 1, nif_id, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"dirty_io", 1, nif_id, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"dirty_wait", 1, nif_sleep, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"sleep", 1, nif_sleep, 0},
};

ERL_NIF_INIT(tcs_nif, nif_funcs, NULL, NULL, NULL, NULL)
