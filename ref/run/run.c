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
#include "mstest.h"
#include "patterns.h"
#include "porttracer.h"
#include "ports.h"
#include "procs.h"
#include "procspec.h"
#include "release.h"
#include "run.h"
#include "running.h"
#include "seqtrace.h"
#include "seqtracer.h"
#include "steps.h"
#include "signals.h"
#include "sessions.h"
#include "fninfo.h"
#include "status.h"
#include "timers.h"
#include "together.h"
#include "windows.h"
#include "tracermod.h"
#include "fixturecode.h"
#include "readings.h"
#include "suspend.h"
#include "peer.h"
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
    return sysmon_legacy_step(m, st);
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

/* Why model v1 refuses a together block's step (its `together` too) or NULL: the node of a release
 * may crash during it, and the crash's evidence, the last step the node started (PROTOCOLS.md
 * section 5), would name the block, where the model names a step in it (release.py's crash check). */
static const char *together_crash_refusal(Model *m, const Step *st)
{
    const char *what = NULL;
    if (!st->together && st->kind != ST_TOGETHER)
        return NULL;
    if (release_gc_range_before(m))
        what = "a together block while two sessions trace a process's collections (a release's node may crash at "
               "one: #11624, C-92) is";
    else if (busyloop_crash_possible(m))
        what = "a together block while a busy loop runs under which a release's node may crash (C-448, C-590) is";
    return what;
}

/* The effect and lines of one step; false with err set if unsupported. */
static bool run_step(Model *m, const Step *st)
{
    m->step = st;
    bool was_unloaded = m->tracer_unloaded; /* the module may come back in this step (C-390) */
    const char *refused = suspend_refuses(m, st);
    if (!refused)
        refused = peer_refuses(m, st);
    if (!refused)
        refused = sysmon_legacy_refuses(m, st);
    if (!refused)
        refused = together_crash_refusal(m, st);
    if (refused)
        return model_unsupported(m, st->line, st->col, refused);
    if (!timers_before_step(m, st))
        return false;
    if (st->together && !together_step_begin(m, st))
        return false;
    bool ok = step_by_process(st->kind) ? actor_step(m, st) : handlers[st->kind].by_harness(m, st);
    if (ok && !m->crashed) /* a suspender that exited in the step: its suspends lifted */
        suspend_lift_exited(m);
    if (ok && !drvports_consistent(m))
        return false;
    if (ok && m->crashed && st->together)
        return model_unsupported(m, st->line, st->col,
                                 "a step of a together block at which the release's node crashes (its crash evidence "
                                 "names the block, not the step) is");
    if (ok && harness_settles(st) && !st->together) { /* a block is settled at its end */
        tracermod_settled(m, step_by_process(st->kind) ? model_proc(m, st->actor) : -1);
        status_settled(m);
    }
    if (ok && !seqtrace_holders_untraced(m))
        return model_unsupported(m, st->line, st->col,
                                 "tracing a process that holds a seq_trace token (C-65) is");
    return ok && (m->crashed || (windows_after_step(m, st, was_unloaded && !m->tracer_unloaded) &&
                                 busyloop_after_step(m, st) && (!st->together || together_step_end(m, st))));
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

/* A run under way: the model, the arena of the temporaries of its step, and the step the node
 * dies during (0: none). */
typedef struct { Model *m; Arena scratch; int crash_at; } Run;

static bool run_begin(Run *r, Arena *a, const Scenario *sc, int release, int crash_at, Stream *out, Err *err)
{
    r->m = calloc(1, sizeof *r->m);
    if (!r->m)
        abort();
    r->m->release = release;
    arena_init(&r->scratch);
    r->m->scratch = &r->scratch;
    r->crash_at = crash_at;
    return model_init(r->m, a, sc, out, err);
}

/* True iff the step after the last one run runs: the node has not crashed, nor dies during it. */
static bool run_goes_on(const Run *r)
{
    return !r->m->crashed && (r->crash_at <= 0 || r->m->step_no + 1 < r->crash_at);
}

/* The next step, st, run; its temporaries freed. */
static bool run_next(Run *r, const Step *st)
{
    Model *m = r->m;
    m->step_no++;
    bool before = release_gc_range_before(m);
    bool ok = run_step(m, st);
    release_gc_range_step(m, m->step_no, before);
    arena_reset(&r->scratch);
    return ok;
}

/* The end of a run that went well so far (ok), facts (unless NULL) filled in, its memory freed. */
static bool run_end(Run *r, bool ok, RunFacts *facts)
{
    Model *m = r->m;
    release_gc_range_close(m);
    if (ok) /* a crash too: the stream stays well formed */
        ok = busyloop_end(m, run_goes_on(r));
    if (ok && run_goes_on(r))
        ok = timers_end(m);
    if (ok) {
        sysmon_end(m);
        running_end(m);
        windows_close_all(m);
    }
    if (ok)
        release_notes(m, m->out);
    if (facts) {
        facts->gc_two_sessions = m->gc_two_sessions_seen;
        facts->may_crash = m->may_crash_seen;
        facts->crashed = m->crashed;
    }
    for (int p = 0; p < m->nprocs; p++) /* the copies in the mailboxes are not the arena's */
        messages_drop(m, p);
    together_abandon(m);
    arena_free(&r->scratch);
    free(m);
    return ok;
}

bool run_scenario_until(Arena *a, const Scenario *sc, int release, int crash_at, Stream *out, Err *err,
                        RunFacts *facts)
{
    Run r;
    bool ok = run_begin(&r, a, sc, release, crash_at, out, err);
    for (size_t i = 0; ok && i < sc->nsteps && run_goes_on(&r); i++)
        ok = run_next(&r, &sc->steps[i]);
    return run_end(&r, ok, facts);
}

/* True iff the model keeps nothing st points to once it ran, so its memory can go: a send's
 * message is copied into the mailbox (messages.c), a receive only compares its message. A long
 * case is mostly these; the other steps' memory stays with the case (a spawn's name, a
 * pattern's match spec, a trace step's tracer state, ... are kept by the model). */
static bool step_forgotten(const Step *st) { return st->kind == ST_SEND || st->kind == ST_RECV; }

bool run_file(Arena *a, const char *path, RunOptions o, Scenario *sc, Stream *out, Err *err)
{
    *out = (Stream){0};
    ScenarioReader *reader;
    if (!scenario_open(a, path, sc, &reader, err))
        return false;
    stream_init(out, sc->id, o.explain);
    if (o.bounded)
        stream_bound(out);
    Run r;
    bool ok = run_begin(&r, a, sc, o.release, o.crash_at, out, err);
    const Step *st;
    ReadResult got;
    /* every step is read, also those after the last one run (the model refused a step, or the
     * node dies): a problem of the file anywhere overwrites the model's err, as when the whole
     * file was parsed before a step ran; the stream so far is then dropped */
    while ((got = scenario_next(reader, &st)) == READ_STEP) {
        bool runs = ok && run_goes_on(&r);
        if (runs)
            ok = run_next(&r, st);
        if (runs && !step_forgotten(st))
            scenario_keep_step(reader);
    }
    ok = run_end(&r, ok && got == READ_END, NULL);
    scenario_close(reader);
    if (!ok)
        stream_free(out);
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
    /* C-92 at a collection the runtime starts; #8835, OTP-19034 under a busy loop (C-448, C-590); a
     * tracer port's burst (C-502) */
    *may_crash = ok && (facts.gc_two_sessions || facts.may_crash);
    for (int r = release_next_crashing(0); ok && !*may_crash && r > 0; r = release_next_crashing(r)) {
        ok = run_for_facts(a, sc, r, &facts, err);
        *may_crash = ok && facts.crashed;
    }
    return ok;
}
