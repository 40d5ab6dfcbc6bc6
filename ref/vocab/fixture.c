/* fixture.c - the function table of the fixture modules. */
#include "fixture.h"

#include <string.h>

static const char *const module_names[FIXTURE_MODULES] = {"tcs_target", "tcs_late", "tcs_nif", "tcs_shapes", "erlang",
                                                                 "lists"};

static const FixtureFnInfo fns[FIXTURE_FNS] = {
    [FN_ID] = {MOD_TARGET, "id", 1, true},
    [FN_TWICE] = {MOD_TARGET, "twice", 1, true},
    [FN_TAIL] = {MOD_TARGET, "tail", 1, true},
    [FN_DEEP] = {MOD_TARGET, "deep", 1, true},
    [FN_INNER] = {MOD_TARGET, "inner", 1, false},
    [FN_CHECK] = {MOD_TARGET, "check", 1, true},
    [FN_RELAY] = {MOD_TARGET, "relay", 1, true},
    [FN_CATCHER] = {MOD_TARGET, "catcher", 1, true},
    [FN_TOP] = {MOD_TARGET, "top", 1, true},
    [FN_MIDDLE] = {MOD_TARGET, "middle", 1, true},
    [FN_BOTTOM] = {MOD_TARGET, "bottom", 1, true},
    [FN_TARGET_INFO0] = {MOD_TARGET, "module_info", 0, true},
    [FN_TARGET_INFO1] = {MOD_TARGET, "module_info", 1, true},
    [FN_LATE_ID] = {MOD_LATE, "id", 1, true},
    [FN_LATE_INFO0] = {MOD_LATE, "module_info", 0, true},
    [FN_LATE_INFO1] = {MOD_LATE, "module_info", 1, true},
    /* NIFs (driver/runner/tcs_nif.c) but load/1 and module_info/0,1 */
    [FN_NIF_LOAD] = {MOD_NIF, "load", 1, true},
    [FN_NIF_ID] = {MOD_NIF, "id", 1, true},
    [FN_NIF_CHECK] = {MOD_NIF, "check", 1, true},
    [FN_NIF_DIRTY_CPU] = {MOD_NIF, "dirty_cpu", 1, true},
    [FN_NIF_DIRTY_IO] = {MOD_NIF, "dirty_io", 1, true},
    [FN_NIF_DIRTY_WAIT] = {MOD_NIF, "dirty_wait", 1, true},
    [FN_NIF_SLEEP] = {MOD_NIF, "sleep", 1, true},
    [FN_NIF_INFO0] = {MOD_NIF, "module_info", 0, true},
    [FN_NIF_INFO1] = {MOD_NIF, "module_info", 1, true},
    /* the code shapes of OTP's stack_grow/1, bit_syntax/1, trace_call_memory_SUITE's receive and
     * big_words/1, and trace_call_time_SUITE's yield in a traced function (erlang/otp#8835) */
    [FN_LOOP] = {MOD_SHAPES, "loop", 1, true},
    [FN_BS_SUM_A] = {MOD_SHAPES, "bs_sum_a", 2, true},
    [FN_BS_SUM_B] = {MOD_SHAPES, "bs_sum_b", 2, true},
    [FN_BS_SUM_C] = {MOD_SHAPES, "bs_sum_c", 2, true},
    [FN_RECEIVE_MESSAGE] = {MOD_SHAPES, "receive_message", 0, true},
    [FN_ALLOC_TUPLES] = {MOD_SHAPES, "alloc_tuples", 2, true},
    [FN_YIELDING] = {MOD_SHAPES, "yielding", 1, true}, /* trace_call_time_SUITE's bbb/0: erlang:yield() inside */
    [FN_SHAPES_INFO0] = {MOD_SHAPES, "module_info", 0, true},
    [FN_SHAPES_INFO1] = {MOD_SHAPES, "module_info", 1, true},
    [FN_PHASH2] = {MOD_ERLANG, "phash2", 1, true}, /* a BIF: traced on its export entry */
    [FN_SEQ] = {MOD_LISTS, "seq", 2, true},
    [FN_APPLY2] = {MOD_ERLANG, "apply", 2, true}, /* the entry point of a spawned fun (LIB-TARGET-APPLY) */
};

const char *fixture_module_name(FixtureModule m) { return module_names[m]; }

int fixture_module(const char *name)
{
    for (int m = 0; m < FIXTURE_MODULES; m++)
        if (strcmp(module_names[m], name) == 0)
            return m;
    return -1;
}

bool fixture_module_is_library(FixtureModule m) { return m == MOD_ERLANG || m == MOD_LISTS; }

const FixtureFnInfo *fixture_fn_info(int fn) { return &fns[fn]; }

bool fixture_fn_is_dirty(int fn)
{
    return fn == FN_NIF_DIRTY_CPU || fn == FN_NIF_DIRTY_IO || fn == FN_NIF_DIRTY_WAIT;
}

bool fixture_fn_is_harness(int fn) { return fn == FN_NIF_LOAD || strcmp(fns[fn].name, "module_info") == 0; }

int fixture_fn(FixtureModule m, const char *name, long long arity)
{
    for (int f = 0; f < FIXTURE_FNS; f++)
        if (fns[f].module == m && fns[f].arity == arity && strcmp(fns[f].name, name) == 0)
            return f;
    return -1;
}

/* The non-tail calls between fixture functions, and the source line of each (MS-CALLER-LINE);
 * driver/tests/test_caller_line.py checks them against the fixture sources. */
typedef struct {
    int caller, callee;
    bool in_try, global;
    int line;
} CallSite;

static const CallSite call_sites[] = {
    {FN_TWICE, FN_ID, false, false, 11},        {FN_DEEP, FN_INNER, false, false, 15},
    {FN_RELAY, FN_CHECK, false, false, 23},     {FN_CATCHER, FN_RELAY, true, false, 26},
    {FN_TOP, FN_MIDDLE, true, false, 34},       {FN_TOP, FN_MIDDLE, true, true, 35},
    {FN_MIDDLE, FN_BOTTOM, false, false, 37},   {FN_MIDDLE, FN_BOTTOM, false, true, 38},
    {FN_MIDDLE, FN_BOTTOM, true, false, 39},    {FN_MIDDLE, FN_BOTTOM, true, true, 40},
    {FN_LOOP, FN_LOOP, false, false, 16},
};

int fixture_call_line(int caller, int callee, bool in_try, bool global)
{
    for (size_t i = 0; i < sizeof call_sites / sizeof call_sites[0]; i++) {
        const CallSite *c = &call_sites[i];
        if (c->caller == caller && c->callee == callee && c->in_try == in_try && c->global == global)
            return c->line;
    }
    return 0;
}
