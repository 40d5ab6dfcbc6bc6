/* busyloop.c - `A loop M:F(Args)` ... `A idle`: A calls M:F(Args) over and over, with no pause,
 * across the steps between (trace_call_time_SUITE's loop_aaa_bbb/0 under the resets of
 * #8835's test). What the documents fix is normative: the answers of the harness's calls, the
 * loop's first call (the harness waits for it) and a last call made after every step before
 * `idle` (the harness waits for one that began after them), each traced as A's trace then
 * stands. What the scheduler decides is an allowed set (CALL-BUSY-LOOP, C-447): how many calls
 * A makes meanwhile, each traced whole as its trace stood at one of the steps it ran across,
 * a window per such template; and the counts of the counters the loop passes (Counter.uncounted:
 * a reading is refused). A loop of a dirty NIF (OTP-19034's loop, C-590) is traced for call only
 * too: traced for running, it is scheduled out and in on its way back from each dirty scheduler,
 * at tcs_busy:spin/6 (seen live on 25), lines of the loop's code no window states. */
#include <string.h>

#include "busyloop.h"
#include "calls.h"
#include "control.h"
#include "fixture.h"
#include "races.h"
#include "release.h"

/* A loop's calls are made by tcs_busy:spin/4 through erlang:apply/3. */
static bool loop_call(Model *m, int p, const Step *st)
{
    return calls_step_from(m, p, st, term_tuple3(m->a, term_atom(m->a, "tcs_busy"), term_atom(m->a, "spin"),
                                                 term_int(m->a, 4)));
}

/* The window's template: the lines one call of the loop writes. */
static void fire_call(Model *m, int p, const void *arg) { loop_call(m, p, arg); }

/* The loop's function, an index of the fixture. */
static int loop_fn(const Step *st)
{
    return fixture_fn(fixture_module(st->module), st->fn, term_list_length(st->args));
}

/* CALL-BUSY-SILENT-ARITY (match_spec_SUITE otp_9422/1): a match spec whose every run on the
 * loop's call turns the looper's own arity flag on, or every run off: one clause, its head '_'
 * or the call's very arguments, no guard, the body [{enable_trace,arity}] or
 * [{disable_trace,arity}]. In a silent looper, which shows no call event and keeps no trace
 * frame (CALL-SILENT), each call then writes what any other does, whatever the flag, and the
 * last call, made after every step, leaves the flag as the pattern standing then says. */
static bool silent_arity_ms(const Term *ms, const Step *st)
{
    const Term *clause = ms->kind == TK_CONS && ms->u.cons.tail->kind == TK_NIL ? ms->u.cons.head : NULL;
    if (!clause || clause->kind != TK_TUPLE || clause->u.tuple.n != 3)
        return false;
    const Term *head = clause->u.tuple.el[0], *guards = clause->u.tuple.el[1], *body = clause->u.tuple.el[2];
    const Term *action = body->kind == TK_CONS && body->u.cons.tail->kind == TK_NIL ? body->u.cons.head : NULL;
    return (term_is_atom(head, "_") || term_compare(head, st->args) == 0) && guards->kind == TK_NIL && action &&
           action->kind == TK_TUPLE && action->u.tuple.n == 2 &&
           (term_is_atom(action->u.tuple.el[0], "enable_trace") || term_is_atom(action->u.tuple.el[0], "disable_trace")) &&
           term_is_atom(action->u.tuple.el[1], "arity");
}

/* Why the model cannot state p's loop as things stand, or NULL; *arity_ms set when a match spec
 * of the loop's function is one CALL-BUSY-SILENT-ARITY states. */
static const char *unsupported_loop(const Model *m, int p, const Step *st, bool *arity_ms)
{
    *arity_ms = false;
    const Proc *pr = &m->procs[p];
    const char *what = NULL;
    int fn = loop_fn(st);
    /* a call that reaches more functions is traced function by function as each pattern stands
     * when the call reaches it: a step between mixes them, which no template of a whole call states */
    if (fn != FN_ID && fn != FN_YIELDING && !fixture_fn_is_dirty(fn))
        what = "a busy loop of another function than tcs_target:id/1, tcs_shapes:yielding/1 or the dirty NIFs "
               "tcs_nif:dirty_cpu/1, dirty_io/1 and dirty_wait/1 is";
    else if (!pr->alive || pr->blocked || pr->suspended)
        what = "a busy loop of a process that is not idle at its gate, or ended by another step than its idle, is";
    else if (m->all_modules_pattern)
        what = "a busy loop under a '_':'_'/'_' pattern (its own calls would be traced) is";
    else if (m->tracer_unloaded || m->tracer_old_code)
        what = "a busy loop while the tracer module is unloaded or its old code is kept is";
    for (int s = 0; !what && s < m->nsessions; s++) {
        const TraceState *ts = &pr->trace[s];
        const Pattern *pat = &m->sessions[s].pats[fn];
        /* arity and silent change how a call is traced, and add no event on the way to the gate */
        FlagSet call_only = FLAG_BIT(FL_CALL) | FLAG_BIT(FL_ARITY) | FLAG_BIT(FL_SILENT);
        bool silent = model_attached(ts) && (ts->flags & FLAG_BIT(FL_SILENT));
        bool has_ms = pat->ms && !term_is_atom(pat->ms, "true") && pat->ms->kind != TK_NIL;
        if (model_attached(ts) && (ts->flags & ~call_only) != 0)
            what = "a busy process traced for more than call (its way back to its gate would be seen too) is";
        else if (pat->meta || (has_ms && !(silent && silent_arity_ms(pat->ms, st))))
            what = "a busy loop's function with a match spec or a meta pattern (their actions as many times as the "
                   "loop calls, but in a silent looper one clause turning its arity flag on or off) is";
        else
            *arity_ms |= has_ms;
    }
    return what;
}

/* A window for p's call as its trace stands, unless one of the loop's windows has its template. */
static bool open_window(Model *m, int p)
{
    Proc *pr = &m->procs[p];
    const char *tpl = races_template(m, p, fire_call, pr->looping);
    if (!tpl)
        return true;
    for (int i = 0; i < pr->nloop_windows; i++)
        if (strcmp(pr->loop_templates[i], tpl) == 0)
            return true;
    if (pr->nloop_windows == LOOP_WINDOWS)
        return model_unsupported(m, pr->looping->line, pr->looping->actor_col,
                                 "a busy loop whose call is traced in more than eight ways while it runs is");
    pr->loop_templates[pr->nloop_windows] = arena_strndup(m->a, tpl, strlen(tpl)); /* tpl: the step's scratch */
    pr->loop_windows[pr->nloop_windows++] = races_open(m, RACE_BUSY_LOOP, 0, tpl);
    return true;
}

/* The running counters of the loop's function, in every session, count what no model can. */
static void mark_uncounted(Model *m, const Step *busy)
{
    int fn = loop_fn(busy);
    for (int s = 0; s < m->nsessions; s++)
        for (int k = 0; k < COUNTERS; k++) {
            Counter *c = &m->sessions[s].pats[fn].counters[k];
            c->uncounted |= c->state == COUNTER_RUNNING;
        }
}

/* Whether some process runs a loop (of a dirty NIF, when dirty). */
static bool any_loop(const Model *m, bool dirty)
{
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].looping && (!dirty || fixture_fn_is_dirty(loop_fn(m->procs[p].looping))))
            return true;
    return false;
}

/* #8835 and OTP-19034 on OTP 25: from the step that reset the counter (that traced a process spec)
 * on, the node may crash while a loop runs (the step of the loop's idle too, during which it runs). */
static void predict_if(Model *m, bool cause, Deviation d)
{
    if (!cause)
        return;
    m->may_crash_seen = true;
    release_deviates(m, d);
}

bool busyloop_crash_possible(const Model *m)
{
    return (m->loop_counter_reset && any_loop(m, false)) || (m->loop_spec_dirty && any_loop(m, true));
}

/* Every prediction a loop running now makes. */
static void predict_crash(Model *m)
{
    predict_if(m, m->loop_counter_reset, DEV_COUNTER_RESET_BUSY_MAY_CRASH);
    predict_if(m, m->loop_spec_dirty, DEV_SPEC_DIRTY_BUSY_MAY_CRASH);
}

bool busyloop_start(Model *m, int p, const Step *st)
{
    bool arity_ms;
    const char *why = unsupported_loop(m, p, st, &arity_ms);
    if (why)
        return model_unsupported(m, st->line, st->actor_col, why);
    if (arity_ms)
        control_decided(m, "CALL-BUSY-SILENT-ARITY");
    Step *kept = arena_alloc(m->a, sizeof *kept); /* the reader reuses st for the next step; what st
                                                   * holds stays, as a loop step is never forgotten */
    *kept = *st;
    m->procs[p].looping = kept;
    m->procs[p].nloop_windows = 0;
    return open_window(m, p) && loop_call(m, p, st);
}

static void close_windows(Model *m, Proc *pr)
{
    for (int i = 0; i < pr->nloop_windows; i++)
        races_close(m, RACE_BUSY_LOOP, pr->loop_windows[i]);
    pr->nloop_windows = 0;
}

bool busyloop_stop(Model *m, int p, const Step *st)
{
    Proc *pr = &m->procs[p];
    if (!pr->looping)
        return model_unsupported(m, st->line, st->actor_col, "idle of a process that runs no busy loop is");
    const Step *busy = pr->looping;
    mark_uncounted(m, busy);
    predict_crash(m);
    bool ok = loop_call(m, p, busy);
    close_windows(m, pr);
    pr->looping = NULL;
    return ok;
}

bool busyloop_dirty(const Model *m, int p)
{
    return m->procs[p].looping && fixture_fn_is_dirty(loop_fn(m->procs[p].looping));
}

const char *busyloop_refuses(const Model *m, int p, const Step *st)
{
    const char *what = NULL;
    if (m->procs[p].looping && st->kind != ST_IDLE)
        what = "a step by a process busy in its loop (before its idle) is";
    return what;
}

void busyloop_counter_reset(Model *m)
{
    m->loop_counter_reset |= any_loop(m, false);
}

void busyloop_spec_trace(Model *m)
{
    m->loop_spec_dirty |= any_loop(m, true);
}

bool busyloop_after_step(Model *m, const Step *st)
{
    bool looping = false;
    for (int p = 0; p < m->nprocs; p++) {
        Proc *pr = &m->procs[p];
        if (!pr->looping)
            continue;
        looping = true;
        bool arity_ms;
        const char *why = unsupported_loop(m, p, pr->looping, &arity_ms);
        if (why)
            return model_unsupported(m, st->line, st->col, why);
        if (arity_ms)
            control_decided(m, "CALL-BUSY-SILENT-ARITY");
        if (!open_window(m, p))
            return false;
        mark_uncounted(m, pr->looping);
    }
    if (looping) {
        m->loop_last_line = st->line;
        m->loop_last_col = st->col;
        predict_crash(m);
    }
    else
        m->loop_counter_reset = m->loop_spec_dirty = false;
    return true;
}

bool busyloop_end(Model *m, bool every_step_ran)
{
    for (int p = 0; p < m->nprocs; p++) {
        if (every_step_ran && m->procs[p].looping)
            return model_unsupported(m, m->loop_last_line, m->loop_last_col,
                                     "a case that ends while a busy loop runs (no idle) is");
        close_windows(m, &m->procs[p]);
    }
    return true;
}
