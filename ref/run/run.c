/* run.c - runs a scenario's steps in file order; which concern handles each step. */
#include <stdlib.h>

#include "busyloop.h"
#include "busyreload.h"
#include "calls.h"
#include "drvports.h"
#include "gc.h"
#include "messages.h"
#include "model.h"
#include "msgpatterns.h"
#include "patterns.h"
#include "ports.h"
#include "procs.h"
#include "procspec.h"
#include "release.h"
#include "run.h"
#include "seqtrace.h"
#include "seqtracer.h"
#include "steps.h"
#include "signals.h"
#include "sessions.h"
#include "fninfo.h"
#include "status.h"
#include "windows.h"
#include "tracermod.h"
#include "fixturecode.h"
#include "readings.h"
#include "sysmon.h"

/* The handlers the step table names that are no module's own function: a module's function
 * with an argument the kind of step gives, or one that two modules share by the step's form. */
static bool run_link(Model *m, int p, const Step *st) { return procs_link(m, p, st, true); }
static bool run_unlink(Model *m, int p, const Step *st) { return procs_link(m, p, st, false); }
static bool run_register(Model *m, int p, const Step *st) { return procs_register(m, p, st, true); }
static bool run_unregister(Model *m, int p, const Step *st) { return procs_register(m, p, st, false); }
static bool run_port_command(Model *m, int p, const Step *st) { return ports_command(m, p, st, false); }
static bool run_port_send(Model *m, int p, const Step *st) { return ports_command(m, p, st, true); }
static bool run_pattern(Model *m, const Step *st)
{
    return st->event ? msgpatterns_step(m, st) : patterns_step(m, st); /* send, 'receive': trace:send/3, recv/3 */
}
static bool run_info(Model *m, const Step *st)
{
    return st->term ? fninfo_step(m, st) : status_info(m, st); /* a function {M,F,A}, or a process */
}
static bool run_sysmon(Model *m, const Step *st)
{
    (void)st;
    return sysmon_legacy_read(m);
}

/* A step's handler: of a process's step (BY_PROCESS) with the index of the process, of the
 * harness's without. */
typedef struct {
    bool (*by_process)(Model *m, int p, const Step *st);
    bool (*by_harness)(Model *m, const Step *st);
} Handler;

#define HANDLER_BY_PROCESS(h) {.by_process = h}
#define HANDLER_BY_HARNESS(h) {.by_harness = h}
#define HANDLER_ROW(kind, plan, keyword, by, settles, token, handler) [kind] = HANDLER_##by(handler),
static const Handler handlers[STEP_KINDS] = {TCS_STEPS(HANDLER_ROW)};
#undef HANDLER_ROW

/* A step of one process of the scenario (the process is the step's actor). */
static bool actor_step(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    if (!m->procs[p].alive)
        return model_unsupported(m, st->line, st->actor_col, "a step by a dead process is");
    if (m->procs[p].blocked)
        return model_unsupported(m, st->line, st->actor_col, "a step by a process blocked in a receive is");
    if (m->procs[p].suspended)
        return model_unsupported(m, st->line, st->actor_col, "a step by a process suspended on a busy port is");
    if (!seqtrace_allows(m, p, st->kind))
        return model_unsupported(m, st->line, st->col, "this step by a process holding a seq_trace token is");
    const char *looping = busyloop_refuses(m, p, st);
    if (looping)
        return model_unsupported(m, st->line, st->actor_col, looping);
    return handlers[st->kind].by_process(m, p, st);
}

/* True iff the harness settles after st (tcs_runner:settle/1 pokes the gate, waking every puppet
 * waiting in it): the step table's SETTLES, all steps but those the harness does alone. */
static bool harness_settles(const Step *st)
{
#define SETTLES_ROW(kind, plan, keyword, by, settles, token, handler) [kind] = settles,
    static const bool settles[STEP_KINDS] = {TCS_STEPS(SETTLES_ROW)};
#undef SETTLES_ROW
    return settles[st->kind];
}

/* The effect and lines of one step; false with err set if unsupported. */
static bool run_step(Model *m, const Step *st)
{
    m->step = st;
    bool was_unloaded = m->tracer_unloaded; /* the module may come back in this step (C-390) */
    bool ok = step_by_process(st->kind) ? actor_step(m, st) : handlers[st->kind].by_harness(m, st);
    if (ok && !drvports_consistent(m))
        return false;
    if (ok && harness_settles(st)) {
        tracermod_settled(m);
        status_settled(m);
    }
    if (ok && !seqtrace_holders_untraced(m))
        return model_unsupported(m, st->line, st->col,
                                 "tracing a process that holds a seq_trace token (C-65) is");
    return ok && (m->crashed || (windows_after_step(m, st, was_unloaded && !m->tracer_unloaded) &&
                                 busyloop_after_step(m, st)));
}

bool run_scenario(Arena *a, const Scenario *sc, Stream *out, Err *err)
{
    return run_scenario_for(a, sc, 0, out, err);
}

bool run_scenario_for(Arena *a, const Scenario *sc, int release, Stream *out, Err *err)
{
    return run_scenario_until(a, sc, release, 0, out, err, NULL);
}

/* Writes a release note as a comment line when it applied (noted); frees it either way. */
static void put_note(Stream *out, Buf *note, bool noted)
{
    if (noted)
        stream_comment(out, buf_str(note));
    buf_free(note);
}

/* The release notes, one comment line each: the deviations applied, then C-92's ranges. */
static void release_notes(const Model *m, Stream *out)
{
    Buf note;
    for (int d = 0; d < DEV_COUNT; d++) {
        buf_init(&note);
        put_note(out, &note, release_note(m, d, &note));
    }
    bool more = true;
    for (int i = 0; more; i++) {
        buf_init(&note);
        more = release_gc_range_note(m, i, &note);
        put_note(out, &note, more);
    }
}

bool run_scenario_until(Arena *a, const Scenario *sc, int release, int crash_at, Stream *out, Err *err,
                        RunFacts *facts)
{
    Model *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->release = release;
    Arena scratch;
    arena_init(&scratch);
    m->scratch = &scratch;
    bool ok = model_init(m, a, sc, out, err);
    size_t steps = crash_at > 0 && (size_t)crash_at <= sc->nsteps ? (size_t)crash_at - 1 : sc->nsteps;
    for (size_t i = 0; ok && !m->crashed && i < steps; i++) {
        bool before = release_gc_range_before(m);
        ok = run_step(m, &sc->steps[i]);
        release_gc_range_step(m, (int)i + 1, before);
        arena_reset(&scratch);
    }
    release_gc_range_close(m);
    if (ok) { /* a crash too: the stream stays well formed */
        busyloop_close_all(m);
        windows_close_all(m);
    }
    if (ok)
        release_notes(m, out);
    if (facts) {
        facts->gc_two_sessions = m->gc_two_sessions_seen;
        facts->counter_reset_busy = m->loop_counter_reset_seen;
        facts->crashed = m->crashed;
    }
    arena_free(&scratch);
    free(m);
    return ok;
}

/* One run at `release` for its facts alone. */
static bool run_for_facts(Arena *a, const Scenario *sc, int release, RunFacts *facts, Err *err)
{
    Stream s;
    stream_init(&s, sc->id, false);
    bool ok = run_scenario_until(a, sc, release, 0, &s, err, facts);
    stream_free(&s);
    return ok;
}

bool run_scenario_may_crash(Arena *a, const Scenario *sc, bool *may_crash, Err *err)
{
    RunFacts facts = {0};
    bool ok = run_for_facts(a, sc, 0, &facts, err);
    /* C-92 at a collection the runtime starts; #8835 under a busy loop (C-448) */
    *may_crash = ok && (facts.gc_two_sessions || facts.counter_reset_busy);
    for (int r = release_next_crashing(0); ok && !*may_crash && r > 0; r = release_next_crashing(r)) {
        ok = run_for_facts(a, sc, r, &facts, err);
        *may_crash = ok && facts.crashed;
    }
    return ok;
}
