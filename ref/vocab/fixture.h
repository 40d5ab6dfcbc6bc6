/* fixture.h - the modules whose calls scenarios trace (cases/README.md "The traced
 * functions"; driver/runner/tcs_target.erl, tcs_late.erl, tcs_nif.erl and tcs_shapes.erl): their functions as
 * erlang:trace_pattern/3 counts them. What the functions do is in ref/events/calls.c. */
#ifndef TCS_FIXTURE_H
#define TCS_FIXTURE_H
#include <stdbool.h>

typedef enum { MOD_TARGET, MOD_LATE, MOD_NIF, MOD_SHAPES, MOD_ERLANG, MOD_LISTS, FIXTURE_MODULES } FixtureModule;

/* Every function of the fixture modules, module_info/0,1 included (the compiler adds them),
 * then the library targets. */
typedef enum {
    FN_ID, FN_TWICE, FN_TAIL, FN_DEEP, FN_INNER, FN_CHECK, FN_RELAY, FN_CATCHER,
    FN_TOP, FN_MIDDLE, FN_BOTTOM, FN_TARGET_INFO0, FN_TARGET_INFO1, FN_LATE_ID, FN_LATE_INFO0, FN_LATE_INFO1,
    FN_NIF_LOAD, FN_NIF_ID, FN_NIF_CHECK, FN_NIF_DIRTY_CPU, FN_NIF_DIRTY_IO, FN_NIF_DIRTY_WAIT, FN_NIF_SLEEP, FN_NIF_INFO0, FN_NIF_INFO1,
    FN_LOOP, FN_BS_SUM_A, FN_BS_SUM_B, FN_BS_SUM_C, FN_RECEIVE_MESSAGE, FN_ALLOC_TUPLES, FN_YIELDING, FN_SHAPES_INFO0, FN_SHAPES_INFO1,
    FN_PHASH2, FN_SEQ, FN_APPLY2, FIXTURE_FNS
} FixtureFn;

typedef struct {
    FixtureModule module;
    const char *name;
    int arity;
    bool exported;
} FixtureFnInfo;

/* Guarantees: the module's atom name. */
const char *fixture_module_name(FixtureModule m);
/* Guarantees: the fixture module called name, or -1. */
int fixture_module(const char *name);
/* Guarantees: the function's table entry (fn < FIXTURE_FNS). */
const FixtureFnInfo *fixture_fn_info(int fn);
/* Guarantees: true iff m is erlang or lists, whose only known functions are the library
 * targets. */
bool fixture_module_is_library(FixtureModule m);
/* Guarantees: true iff fn is a NIF run on a dirty scheduler (tcs_nif:dirty_cpu/1, dirty_io/1,
 * dirty_wait/1). */
bool fixture_fn_is_dirty(int fn);
/* Guarantees: true iff fn is a function a call step may not name: module_info/0,1, which no case
 * needs, and tcs_nif:load/1, the harness's loading of the NIF library. */
bool fixture_fn_is_harness(int fn);
/* Guarantees: the function name/arity of module m, or -1. */
int fixture_fn(FixtureModule m, const char *name, long long arity);
/* Guarantees: the source line of the non-tail call of callee in caller's body (inside a try
 * when in_try, through the export entry when global), as {caller_line} gives it: the fixture
 * modules name their own file with -file("M.erl", N) on line N (driver/runner/tcs_target.erl,
 * tcs_shapes.erl), so these are the lines of the source; 0 when there is no such call. */
int fixture_call_line(int caller, int callee, bool in_try, bool global);

#endif
