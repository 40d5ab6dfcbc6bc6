/* windows.c - what the runtime adds that the model cannot predict, as allowance windows: the
 * collections it starts by itself (also delayed ones), the scheduling of a process blocked in a
 * receive that handles a signal (also one that passes it new flags), the waits of open_port/2 and
 * of code loading (CONFORMANCE.md section 2, "Runtime additions"). Each window's template is what the tracepoints of the addition would write now.
 * Also the scheduling of a process killed by an exit signal. A window's rule, limit and refusal
 * are its race's row (races.c). */
#include <stdio.h>
#include <string.h>

#include "enabled.h"
#include "races.h"
#include "sched.h"
#include "tracepoint.h"
#include "windows.h"

/* One tracepoint of a template: its tag and term. */
typedef struct { const char *tag; const Term *term; const char *rules; } Point;

static void fire_point(Model *m, int p, const void *arg)
{
    const Point *pt = arg;
    tracepoint_event(m, p, pt->tag, pt->term, NULL, pt->rules);
}

static void fire_points(Model *m, int p, const void *arg)
{
    const Point *pts = arg;
    fire_point(m, p, &pts[0]);
    fire_point(m, p, &pts[1]);
}

/* True iff a session that would trace tag of p answers remove to it: what the runtime's addition
 * would then detach no model can say (C-47 covers the scenario's own tracepoints only). */
static bool answers_remove(const Model *m, int p, const char *tag)
{
    for (int s = 0; s < m->nsessions; s++)
        if (enabled_live(m, s, p, tag) && m->sessions[s].tracer->kind != TRACER_PROCESS &&
            enabled_answer(enabled_session_tracer(m, s), tag) == ANS_REMOVE)
            return true;
    return false;
}

/* True iff a session that would trace one of race r's asked tags of p answers remove to it. */
static bool removes(const Model *m, int p, Race r)
{
    const RaceRow *row = races_row(r);
    return ((row->asked & RACE_ASK_FIRST) && answers_remove(m, p, row->first)) ||
           ((row->asked & RACE_ASK_SECOND) && answers_remove(m, p, row->second));
}

/* Refuses the step: the runtime's addition of race r would be answered remove (its refusal). */
static bool refuse_remove(Model *m, Race r)
{
    return model_unsupported(m, m->step->line, m->step->col, races_row(r)->refusal);
}

/* A collection: its start and end right after one another (the process does nothing between). */
static const char *gc_template(Model *m, int p, const char *start, const char *end)
{
    Term *info = term_placeholder(m->scratch, "_GcInfo");
    Point pts[2] = {{start, info, "GC-RUNTIME"}, {end, info, "GC-RUNTIME"}};
    return allow_capture(m, p, fire_points, pts);
}

/* Two template pieces joined by sep (" ... ": another segment; " ; ": the same segment), in the
 * step's scratch arena as allow_capture's. */
static const char *joined(Model *m, const char *x, const char *sep, const char *y)
{
    size_t n = strlen(x) + strlen(sep) + strlen(y) + 1;
    char *t = arena_alloc(m->scratch, n);
    snprintf(t, n, "%s%s%s", x, sep, y);
    return t;
}

/* A schedule: first then second at mfa, with lines of the process between the two. */
static const char *sched_template(Model *m, int p, const char *first, const char *second, const Term *mfa,
                                  const char *rule)
{
    Point a = {first, mfa, rule}, b = {second, mfa, rule};
    const char *x = allow_capture(m, p, fire_point, &a), *y = allow_capture(m, p, fire_point, &b);
    if (!x || !y)
        return NULL;
    return joined(m, x, " ... ", y);
}

/* True iff some session traces tag of p. */
static bool tag_traced(const Model *m, int p, const char *tag)
{
    for (int s = 0; s < m->nsessions; s++)
        if (enabled_live(m, s, p, tag))
            return true;
    return false;
}

/* The race of a window of kind k. */
static const Race WINDOW_RACES[WINDOW_KINDS] = {RACE_GC_MINOR, RACE_GC_MAJOR, RACE_BLOCKED_SIGNALS,
                                                RACE_BLOCKED_INHERIT};

/* The template of a collection of race r (RACE_GC_MINOR, RACE_GC_MAJOR). */
static const char *gc_race_template(Model *m, int p, Race r)
{
    return gc_template(m, p, races_row(r)->first, races_row(r)->second);
}

/* The template of a schedule of race r at mfa: its first tag, then its second. */
static const char *sched_race_template(Model *m, int p, Race r, const Term *mfa)
{
    const RaceRow *row = races_row(r);
    return sched_template(m, p, row->first, row->second, mfa, row->rule);
}

/* The template the window of kind k of p must have now, or NULL when it must be closed. */
static const char *wanted(Model *m, int p, WindowKind k)
{
    const Proc *pp = &m->procs[p];
    if (!pp->alive || pp->is_port)
        return NULL;
    switch (k) {
    case WIN_GC_MINOR: /* GC-RUNTIME: a young generation filling up */
        return tag_traced(m, p, "gc_minor_start") ? gc_race_template(m, p, RACE_GC_MINOR) : NULL;
    case WIN_GC_MAJOR: /* GC-RUNTIME: the old generation filling up, or fullsweep_after reached */
        return tag_traced(m, p, "gc_minor_start") ? gc_race_template(m, p, RACE_GC_MAJOR) : NULL;
    case WIN_BLOCKED: /* RUN-BLOCKED-SIGNALS: scheduled in to handle a signal, back out to wait, in
                       * a receive or suspended on a busy port (RUN-SUSPENDED-BUSY-PORT) */
        if (!(pp->blocked || pp->suspended) || !sched_traced(m, p))
            return NULL;
        return sched_race_template(m, p, WINDOW_RACES[k],
                                   pp->suspended ? sched_suspended_mfa(m, p) : sched_block_mfa(m));
    default: /* RUN-BLOCKED-INHERIT: opened by windows_signal_flags, kept until the wake-up */
        return pp->blocked && pp->windows[k].id ? pp->windows[k].tpl : NULL;
    }
}

/* The template of a window that opens, kept in the model's arena while the window is open (the
 * templates looked at each step are the step's). */
static const char *kept(Model *m, const char *tpl) { return arena_strndup(m->a, tpl, strlen(tpl)); }

/* p enters the list of processes with open windows (once). */
static void track(Model *m, int p)
{
    if (m->procs[p].windowed)
        return;
    m->windowed = arena_grow(m->a, m->windowed, (size_t)m->nwindowed, &m->windowed_cap, sizeof *m->windowed);
    m->windowed[m->nwindowed++] = p;
    m->procs[p].windowed = true;
}

bool windows_sync(Model *m, int p)
{
    bool open = false;
    const OpenWindow *signal = &m->procs[p].windows[WIN_SIGNAL_FLAGS];
    for (int k = 0; k < WINDOW_KINDS; k++) {
        const char *tpl = wanted(m, p, (WindowKind)k);
        if (tpl && removes(m, p, WINDOW_RACES[k]))
            return refuse_remove(m, WINDOW_RACES[k]);
        OpenWindow *w = &m->procs[p].windows[k];
        if (w->id && (!tpl || strcmp(tpl, w->tpl) != 0)) {
            races_close(m, WINDOW_RACES[k], w->id);
            w->id = 0;
        }
        if (tpl && !w->id) /* the pairs under new flags come after their handling (RUN-BLOCKED-INHERIT) */
            *w = (OpenWindow){races_open(m, WINDOW_RACES[k], k == WIN_BLOCKED ? signal->id : 0, tpl), kept(m, tpl)};
        open = open || w->id;
    }
    if (open)
        track(m, p);
    return true;
}

BlockSchedule windows_block_schedule(Model *m, int p)
{
    const Proc *pp = &m->procs[p];
    if (!pp->alive || pp->is_port || !pp->blocked)
        return (BlockSchedule){NULL, NULL};
    const char *rule = races_row(RACE_BLOCKED_INHERIT)->rule;
    Point in = {"in", sched_block_mfa(m), rule}, out = {"out", sched_block_mfa(m), rule};
    return (BlockSchedule){allow_capture(m, p, fire_point, &in), allow_capture(m, p, fire_point, &out)};
}

bool windows_signal_flags(Model *m, int p, BlockSchedule before)
{
    BlockSchedule now = windows_block_schedule(m, p);
    if (!now.out || (before.out && strcmp(before.out, now.out) == 0))
        return true; /* not blocked, or its schedule looks as before: RUN-BLOCKED-SIGNALS covers it */
    if (removes(m, p, RACE_BLOCKED_INHERIT))
        return refuse_remove(m, RACE_BLOCKED_INHERIT);
    OpenWindow *w = &m->procs[p].windows[WIN_SIGNAL_FLAGS];
    races_close(m, RACE_BLOCKED_INHERIT, w->id);
    /* scheduled in under the flags it had (no in line when they had no running), out under the new */
    const char *tpl = before.in ? joined(m, before.in, " ... ", now.out) : now.out;
    /* after the pairs under the old flags: the process handles the new ones only once they are done */
    *w = (OpenWindow){races_open(m, RACE_BLOCKED_INHERIT, m->procs[p].windows[WIN_BLOCKED].id, tpl), kept(m, tpl)};
    track(m, p);
    return true;
}

/* windows_sync of the processes with open windows; those left without any leave the list. */
static bool sync_windowed(Model *m)
{
    int kept = 0, n = m->nwindowed;
    for (int i = 0; i < n; i++) {
        int p = m->windowed[i];
        m->procs[p].windowed = false;
        if (!windows_sync(m, p))
            return false;
        bool open = false;
        for (int k = 0; k < WINDOW_KINDS; k++)
            open = open || m->procs[p].windows[k].id;
        if (open) {
            m->windowed[kept++] = p;
            m->procs[p].windowed = true;
        }
    }
    m->nwindowed = kept;
    return true;
}

static bool sync_named(Model *m, const char *name)
{
    int p = name ? model_proc(m, name) : -1;
    return p < 0 || windows_sync(m, p);
}

bool windows_after_step(Model *m, const Step *st, bool tracer_back)
{
    if (!sync_windowed(m))
        return false;
    /* GC-RUNTIME, TRACER-UNLOADED: while the module was gone no template could be written, so
     * the windows of every tracee closed and it left the list of windowed processes; one that
     * kept its tracer may be collected again as soon as the module is back, whichever process
     * the step names (C-390) */
    if (tracer_back) {
        for (int p = 0; p < m->nprocs; p++)
            if (!windows_sync(m, p))
                return false;
        return true;
    }
    if (step_by_process(st->kind))
        return sync_named(m, st->actor) && sync_named(m, st->other);
    if (st->kind == ST_INFO || st->kind == ST_PATTERN) /* they change no process's flags */
        return true;
    if (st->kind == ST_TRACE && st->spec == SPEC_PID)
        return sync_named(m, st->actor);
    for (int p = 0; p < m->nprocs; p++)
        if (!windows_sync(m, p))
            return false;
    return true;
}

void windows_close_all(Model *m)
{
    for (int i = 0; i < m->nwindowed; i++)
        for (int k = 0; k < WINDOW_KINDS; k++) {
            OpenWindow *w = &m->procs[m->windowed[i]].windows[k];
            races_close(m, WINDOW_RACES[k], w->id);
            w->id = 0;
        }
    m->nwindowed = 0;
}

bool windows_wait(Model *m, int p, const Term *mfa, Race r, unsigned *id)
{
    *id = 0;
    if (!sched_traced(m, p))
        return true;
    if (removes(m, p, r))
        return refuse_remove(m, r);
    const char *tpl = sched_race_template(m, p, r, mfa);
    if (tpl)
        *id = races_open(m, r, 0, tpl);
    return true;
}

bool windows_delayed_gc(Model *m, int p, const Term *mfa, unsigned ids[2])
{
    ids[0] = ids[1] = 0;
    if (!sched_traced(m, p))
        return true;
    const Race GC[2] = {RACE_GC_MINOR, RACE_GC_MAJOR}; /* minor, then major */
    bool gc = tag_traced(m, p, "gc_minor_start");
    if (removes(m, p, RACE_GC_DELAYED))
        return refuse_remove(m, RACE_GC_DELAYED);
    for (int k = 0; gc && k < 2; k++)
        if (removes(m, p, GC[k]))
            return refuse_remove(m, RACE_GC_DELAYED);
    const char *yield = sched_race_template(m, p, RACE_GC_DELAYED, mfa);
    if (!yield)
        return true;
    if (!gc) { /* the collection is not traced: the yield alone */
        ids[0] = races_open(m, RACE_GC_DELAYED, 0, yield);
        return true;
    }
    for (int k = 0; k < 2; k++) { /* out and in at mfa, the collection right after the in (one segment) */
        const char *pair = gc_race_template(m, p, GC[k]);
        if (pair)
            ids[k] = races_open(m, RACE_GC_DELAYED, 0, joined(m, yield, " ; ", pair));
    }
    return true;
}

/* The enabled lines of a tracepoint whose trace callback cannot report (tracepoint_fire_unreported). */
static void fire_unreported(Model *m, int p, const void *arg)
{
    const Point *pt = arg;
    Event ev = {pt->tag, pt->term, NULL, NULL, pt->rules};
    tracepoint_fire_unreported(m, p, &ev);
}

/* Two tracepoints, one after the other, each fired by one (fire_point or fire_unreported). */
typedef struct { AllowFire one; const Point *pts; } PointPair;

static void fire_pair(Model *m, int p, const void *arg)
{
    const PointPair *pair = arg;
    pair->one(m, p, &pair->pts[0]);
    pair->one(m, p, &pair->pts[1]);
}

/* The races of a process killed by an exit signal: the rules its template's lines cite, one window
 * per way they are fired (a normal scheduler: every line; a dirty one: its enabled lines only,
 * the trace callback's report being lost), whether the windows close at once (else the caller
 * closes them), whether a process blocked in a receive escapes the race (it is woken, RUN-WAKE),
 * and whether a pair's two tracepoints are two segments (the process is scheduled out between
 * them, when another scheduler's lines of it may come) rather than right after one another. */
static const struct ExitRace {
    Race race;
    const char *rules;
    AllowFire fires[2];
    bool at_once, not_blocked, apart;
} EXIT_RACES[] = {
    /* C-134: scheduled in exiting only when the signal is handled before the harness wakes it */
    {RACE_KILLED_LINKED, "RUN-FLAGS RUN-KILLED RUN-KILLED-LINKED", {fire_point, NULL}, true, true, false},
    /* C-200: scheduled out exiting on the dirty scheduler when the signal is handled before the NIF returns;
     * C-800: the NIF may return while the exit runs on a normal scheduler, so the caller closes it */
    {RACE_KILLED_DIRTY_OUT, "RUN-FLAGS RUN-KILLED-DIRTY-OUT", {fire_unreported, NULL}, false, true, false},
    /* C-300: picked by a scheduler of the other type, which schedules it in and straight back out */
    {RACE_KILLED_DIRTY_MIGRATE, "RUN-FLAGS RUN-KILLED-DIRTY-MIGRATE", {fire_point, fire_unreported}, false, true,
     false},
    /* C-302: the exit yields in its middle (erts_continue_exit_process, "goto yield"); C-800: the dirty
     * scheduler's out_exiting (RUN-KILLED-DIRTY-OUT) may come while it is scheduled out */
    {RACE_KILLED_EXIT_YIELD, "RUN-FLAGS RUN-KILLED-EXIT-YIELD", {fire_point, NULL}, false, false, true},
};

/* The row of EXIT_RACES of race r, one of them. */
static const struct ExitRace *exit_race(Race r)
{
    size_t k = 0;
    while (EXIT_RACES[k].race != r)
        k++;
    return &EXIT_RACES[k];
}

bool windows_exit_ok(Model *m, int p, Race r)
{
    bool woken = exit_race(r)->not_blocked && m->procs[p].blocked;
    return woken || !removes(m, p, r) || refuse_remove(m, r);
}

void windows_exit(Model *m, int p, Race r, unsigned ids[2])
{
    const struct ExitRace *race = exit_race(r);
    const RaceRow *row = races_row(r);
    const Term *zero = term_int(m->a, 0);
    Point pts[2] = {{row->first, zero, race->rules}, {row->second, zero, race->rules}};
    if (ids)
        ids[0] = ids[1] = 0;
    for (int k = 0; k < 2 && race->fires[k]; k++) {
        const PointPair pair = {race->fires[k], pts};
        unsigned id;
        if (!row->second) { /* one tracepoint */
            id = races_window(m, r, p, race->fires[k], pts);
        } else if (!race->apart) { /* two right after one another */
            id = races_window(m, r, p, fire_pair, &pair);
        } else { /* two apart, each with every line (a normal scheduler) */
            const char *tpl = sched_template(m, p, row->first, row->second, zero, race->rules);
            id = tpl ? races_open(m, r, 0, tpl) : 0;
        }
        if (race->at_once)
            races_close(m, r, id);
        else
            ids[k] = id;
    }
}
