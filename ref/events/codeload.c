/* codeload.c - a process's call loads a module (CONFORMANCE.md C-97, C-160, C-366).
 *
 * The call of a function of a module not loaded runs error_handler:undefined_function/3 in the
 * calling process, which runs code:ensure_loaded/1 there: its requests to the code server are
 * messages the process waits for in code_server:call/1, and the functions and BIFs it runs
 * between them are places where its reductions may run out. Neither is fixed by any step, so
 * the model states them as allowance windows around the step's lines. */
#include "codeload.h"
#include "races.h"
#include "windows.h"

/* The functions a loading process was seen scheduled out at (and back in at, the same), before
 * its last wait for the code server, on OTP 25, 27 and 29: C-366's probe, 18,000 loads. After
 * the last wait it has a new time slice and runs too little to use it up. */
static const struct { const char *module, *function; int arity; } LOAD_PATH[CODELOAD_PATH_FUNCTIONS] = {
    {"error_handler", "undefined_function", 3}, /* called by the runtime for the undefined function */
    {"error_handler", "ensure_loaded", 1},
    {"erlang", "whereis", 1},                   /* whereis(code_server) */
    {"code", "ensure_loaded", 1},
    {"erlang", "module_loaded", 1},
    {"code", "get_mode", 0},                    /* OTP 27 and later: no request */
    {"code_server", "get_mode", 0},
    {"persistent_term", "get", 1},
    {"code", "call", 1},
    {"erlang", "monitor", 2},                   /* code_server:call/1 monitors the server */
    {"erlang", "send", 2},
    {"erlang", "bif_return_trap", 2},           /* erlang:prepare_loading/2 yielding */
};

static const Term *mfa(Model *m, const char *module, const char *function, int arity)
{
    return term_tuple3(m->a, term_atom(m->a, module), term_atom(m->a, function), term_int(m->a, arity));
}

bool codeload_begin(Model *m, int p, FixtureModule mod, const Step *st, CodeLoad *load)
{
    *load = (CodeLoad){0};
    for (int s = 0; s < m->nsessions; s++)
        if (m->procs[p].trace[s].flags & (FLAG_BIT(FL_SEND) | FLAG_BIT(FL_RECEIVE)))
            return model_unsupported(m, st->line, st->col, "loading a module in a process traced "
                                                           "for send or 'receive' is");
    model_load_module(m, mod);
    /* RUN-WAIT-CODE-LOAD: in code_server:call/1 the process waits in a receive for each answer;
     * signals it handles there schedule it in and out again, so no count is fixed (C-366) */
    if (!windows_wait(m, p, mfa(m, "code_server", "call", 1), RACE_WAIT_CODE_LOAD, &load->wait))
        return false;
    /* RUN-PREEMPT-CODE-LOAD: its reductions may run out in any function of the load path */
    for (int k = 0; k < CODELOAD_PATH_FUNCTIONS; k++)
        if (!windows_wait(m, p, mfa(m, LOAD_PATH[k].module, LOAD_PATH[k].function, LOAD_PATH[k].arity),
                          RACE_PREEMPT_CODE_LOAD, &load->preempt[k]))
            return false;
    /* GC-RUNTIME-DELAYED: a collection due while erlang:prepare_loading_1/2 runs is delayed to
     * the process's next schedule-in (seen on OTP 27 and 29) */
    return windows_delayed_gc(m, p, mfa(m, "erlang", "prepare_loading_1", 2), load->delayed_gc);
}

void codeload_end(Model *m, const CodeLoad *load)
{
    races_close(m, RACE_GC_DELAYED, load->delayed_gc[0]);
    races_close(m, RACE_GC_DELAYED, load->delayed_gc[1]);
    for (int k = CODELOAD_PATH_FUNCTIONS - 1; k >= 0; k--)
        races_close(m, RACE_PREEMPT_CODE_LOAD, load->preempt[k]);
    races_close(m, RACE_WAIT_CODE_LOAD, load->wait);
}
