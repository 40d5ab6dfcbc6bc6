/* busyreload.c - `tracer reload while A calls M:F(Args)`: one round of tracer_SUITE's
 * reload/1, the tracer module reloaded while its tracee is busy calling a traced function
 * (CONFORMANCE.md section 2, "The tracer module"; C-281). What the documents fix is normative:
 * the reload answers {module,recorder}, the delete true, the tracee's first call (made before
 * the reload) traced, every call it makes traced whole or not at all, and the node lives on. What a race decides is an allowed set: how many
 * calls the tracee makes meanwhile (a window, TRACER-RELOAD-BUSY) and whether
 * erlang:trace_info/2 right after the reload still finds the tracer (an either-or,
 * TRACER-RELOAD-RACE). */
#include <string.h>

#include "busyreload.h"
#include "calls.h"
#include "fixture.h"
#include "races.h"
#include "status.h"
#include "tracermod.h"

/* A busy loop's calls are made by tcs_busy:calls/5 (erlang:apply/3, then a counter: no tail
 * call), which is what a {caller} match spec sees (fuzz seed 20261205 group Y1). */
static bool loop_call(Model *m, int p, const Step *st)
{
    return calls_step_from(m, p, st, term_tuple3(m->a, term_atom(m->a, "tcs_busy"), term_atom(m->a, "calls"),
                                                 term_int(m->a, 5)));
}

/* The window's template: the lines one call of the loop writes. */
static void fire_call(Model *m, int p, const void *arg) { loop_call(m, p, arg); }

/* erlang:trace_info(A, tracer) right after the reload (arg: the round's step). */
static bool trace_info_tracer(Model *m, int p, const void *arg)
{
    const Step *st = arg;
    (void)p;
    Step info = {.kind = ST_INFO, .line = st->line, .col = st->col, .actor = st->actor, .spec = SPEC_PID,
                 .item = "tracer"};
    return status_info(m, &info);
}

/* Why the model cannot state the round for p, or NULL. */
static const char *unsupported_round(const Model *m, int p, const Step *st)
{
    const Proc *pr = &m->procs[p];
    int mod = fixture_module(st->module);
    int fn = fixture_fn(mod, st->fn, term_list_length(st->args));
    const Pattern *pat = &m->sessions[LEGACY_SESSION].pats[fn];
    const char *what = NULL;
    if (!pr->alive || pr->blocked || pr->suspended || pr->is_port)
        what = "a busy tracee that is no idle process of the case is";
    else if ((pr->trace[LEGACY_SESSION].flags & ~FLAG_BIT(FL_CALL)) != 0)
        what = "a busy tracee traced for more than call (its loop would be seen otherwise too) is";
    else if (mod == MOD_SHAPES) /* each call several calls deep, or a receive */
        what = "a busy loop of a tcs_shapes function is";
    else if (!m->loaded[mod] || m->all_modules_pattern)
        what = "a busy loop that loads its module, or under a '_':'_'/'_' pattern, is";
    else if (pat->meta || pat->counters[COUNTER_COUNT].state || pat->counters[COUNTER_TIME].state ||
             pat->counters[COUNTER_MEMORY].state)
        what = "a busy loop's function with a meta pattern or counters is";
    else if (pat->ms && !term_is_atom(pat->ms, "true") && pat->ms->kind != TK_NIL)
        what = "a busy loop's function with a match spec is";
    else if (m->tracer_unloaded || m->tracer_old_code)
        what = "a busy reload while the tracer module is unloaded or its old code is kept is";
    return what;
}

bool busyreload_step(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    const char *why = unsupported_round(m, p, st);
    if (why)
        return model_unsupported(m, st->line, st->actor_col, why);
    /* the harness reloads only once the loop has made a call: that one is certain; the others
     * come after it, so the window's template is a call made in the state the first one left: a
     * match spec of a function it calls may have changed the tracee's flags (fuzz seed 31337: a
     * local pattern {silent,true} on the loop's callee, the later calls then only ask enabled) */
    if (!loop_call(m, p, st))
        return false;
    unsigned w = races_window(m, RACE_RELOAD_BUSY, p, fire_call, st);
    if (!tracermod_reload(m, st))
        return false;
    /* erlang:trace_info(A, tracer): the tracer as it was, or none when the tracee needed its
     * module while the runtime's cache of the old one was being purged (TRACER-RELOAD-RACE) */
    bool ok = races_either_detached(m, RACE_RELOAD_TRACE_INFO, p, LEGACY_SESSION, trace_info_tracer, st);
    /* the module deleted while the loop goes on: its next call, which the harness waits for,
     * finds no tracer module and detaches the tracer whichever way the race went
     * (TRACER-UNLOADED). The harness pokes no other process after the round (the runner's
     * settle is for steps of the case's processes), so the others keep their tracer until
     * their next event, as after `tracer unload` (fuzz group R7, C-322) */
    ok = ok && tracermod_unload(m, st);
    if (ok && w) {
        model_detach(&m->procs[p].trace[LEGACY_SESSION]);
        races_close(m, RACE_RELOAD_BUSY, w);
    }
    return ok;
}
