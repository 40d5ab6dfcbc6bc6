/* run.c - runs a scenario's steps in file order; which concern handles each step. */
#include <stdlib.h>

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
#include "signals.h"
#include "sessions.h"
#include "fninfo.h"
#include "status.h"
#include "windows.h"
#include "tracermod.h"
#include "fixturecode.h"
#include "readings.h"
#include "sysmon.h"

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
    switch (st->kind) {
    case ST_SEND: return messages_send(m, p, st);
    case ST_RECV: return messages_recv(m, p, st);
    case ST_CALL: return calls_step(m, p, st);
    case ST_SPAWN:
    case ST_SPAWN_LINK: return procs_spawn(m, p, st);
    case ST_LINK: return procs_link(m, p, st, true);
    case ST_UNLINK: return procs_link(m, p, st, false);
    case ST_REGISTER: return procs_register(m, p, st, true);
    case ST_UNREGISTER: return procs_register(m, p, st, false);
    case ST_EXIT: return procs_exit(m, p, st);
    case ST_OPEN_PORT: return ports_open(m, p, st);
    case ST_PORT_COMMAND: return ports_command(m, p, st, false);
    case ST_PORT_SEND: return ports_command(m, p, st, true);
    case ST_PORT_CLOSE: return ports_close(m, p, st);
    case ST_PORT_CONTROL: return drvports_control(m, p, st);
    case ST_GC: return gc_step(m, p, st);
    case ST_KILL: return signals_kill(m, p, st);
    case ST_TRAP_EXIT: return signals_trap_exit(m, p, st);
    case ST_MONITOR: return signals_monitor(m, p, st);
    case ST_SEND_NAME: return messages_send_name(m, p, st);
    default: return seqtrace_step(m, p, st); /* seq_token, seq_print, seq_reset */
    }
}

/* True iff the harness settles after st (tcs_runner:settle/1 pokes the gate, waking every puppet
 * waiting in it): every step but those the harness does alone, which leave the puppets be. */
static bool harness_settles(const Step *st)
{
    return st->kind != ST_INFO && st->kind != ST_TRACER_EXIT && st->kind != ST_TRACER_UNLOAD &&
           st->kind != ST_TRACER_RELOAD && st->kind != ST_TRACER_RELOAD_BUSY && st->kind != ST_MODULE_UNLOAD &&
           st->kind != ST_SYSTEM_MONITOR && st->kind != ST_RELATION;
}

/* The effect and lines of one step; false with err set if unsupported. */
static bool run_step(Model *m, const Step *st)
{
    bool ok;
    m->step = st;
    bool was_unloaded = m->tracer_unloaded; /* the module may come back in this step (C-390) */
    if (st->kind == ST_TRACE)
        ok = procspec_step(m, st);
    else if (st->kind == ST_PATTERN)
        ok = st->event ? msgpatterns_step(m, st) : patterns_step(m, st);
    else if (st->kind == ST_SEQ_TRACER)
        ok = seqtracer_step(m, st);
    else if (st->kind == ST_SESSION)
        ok = sessions_step(m, st);
    else if (st->kind == ST_INFO)
        ok = st->term ? fninfo_step(m, st) : status_info(m, st);
    else if (st->kind == ST_TRACER_EXIT)
        ok = status_tracer_exit(m, st);
    else if (st->kind == ST_TRACER_UNLOAD)
        ok = tracermod_unload(m, st);
    else if (st->kind == ST_TRACER_RELOAD)
        ok = tracermod_reload(m, st);
    else if (st->kind == ST_TRACER_RELOAD_BUSY)
        ok = busyreload_step(m, st);
    else if (st->kind == ST_MODULE_UNLOAD)
        ok = fixturecode_unload(m, st);
    else if (st->kind == ST_SYSTEM_MONITOR)
        ok = sysmon_legacy_read(m);
    else if (st->kind == ST_RELATION)
        ok = readings_relation(m, st);
    else
        ok = actor_step(m, st);
    if (ok && !drvports_consistent(m))
        return false;
    if (ok && harness_settles(st)) {
        tracermod_settled(m);
        status_settled(m);
    }
    if (ok && !seqtrace_holders_untraced(m))
        return model_unsupported(m, st->line, st->col,
                                 "tracing a process that holds a seq_trace token (C-65) is");
    return ok && (m->crashed || windows_after_step(m, st, was_unloaded && !m->tracer_unloaded));
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
    bool ok = model_init(m, a, sc, out, err);
    size_t steps = crash_at > 0 && (size_t)crash_at <= sc->nsteps ? (size_t)crash_at - 1 : sc->nsteps;
    for (size_t i = 0; ok && !m->crashed && i < steps; i++) {
        bool before = release_gc_range_before(m);
        ok = run_step(m, &sc->steps[i]);
        release_gc_range_step(m, (int)i + 1, before);
    }
    release_gc_range_close(m);
    if (ok) /* a crash too: the stream stays well formed */
        windows_close_all(m);
    if (ok)
        release_notes(m, out);
    if (facts) {
        facts->gc_two_sessions = m->gc_two_sessions_seen;
        facts->crashed = m->crashed;
    }
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
    *may_crash = ok && facts.gc_two_sessions; /* C-92 at a collection the runtime starts */
    for (int r = release_next_crashing(0); ok && !*may_crash && r > 0; r = release_next_crashing(r)) {
        ok = run_for_facts(a, sc, r, &facts, err);
        *may_crash = ok && facts.crashed;
    }
    return ok;
}
