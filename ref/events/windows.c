/* windows.c - what the runtime adds that the model cannot predict, as allowance windows: the
 * collections it starts by itself (also delayed ones), the scheduling of a process blocked in a
 * receive that handles a signal (also one that passes it new flags), the waits of open_port/2 and
 * of code loading (CONFORMANCE.md section 2, "Runtime additions"). Each window's template is what the tracepoints of the addition would write now. */
#include <stdio.h>
#include <string.h>

#include "allow.h"
#include "enabled.h"
#include "running.h"
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

/* Refuses the step: the runtime's addition would be answered remove. */
static bool refuse_remove(Model *m)
{
    return model_unsupported(m, m->step->line, m->step->col,
                             "what the runtime may add (collections, scheduling: GC-RUNTIME, RUN-BLOCKED-SIGNALS, "
                             "RUN-WAIT-*) for a process whose tracer answers remove to it is");
}

/* A collection: its start and end right after one another (the process does nothing between). */
static const char *gc_template(Model *m, int p, const char *start, const char *end)
{
    Term *info = term_placeholder(m->a, "_GcInfo");
    Point pts[2] = {{start, info, "GC-RUNTIME"}, {end, info, "GC-RUNTIME"}};
    return allow_capture(m, p, fire_points, pts);
}

/* Two template pieces joined by sep (" ... ": another segment; " ; ": the same segment). In the arena. */
static const char *joined(Model *m, const char *x, const char *sep, const char *y)
{
    size_t n = strlen(x) + strlen(sep) + strlen(y) + 1;
    char *t = arena_alloc(m->a, n);
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

static const char *const WINDOW_RULES[WINDOW_KINDS] = {"GC-RUNTIME", "GC-RUNTIME", "RUN-BLOCKED-SIGNALS",
                                                        "RUN-BLOCKED-INHERIT"};

/* The tags of the tracepoints of a window of kind k. */
static const char *const WINDOW_TAGS[WINDOW_KINDS][2] = {
    {"gc_minor_start", "gc_minor_end"}, {"gc_major_start", "gc_major_end"}, {"in", "out"}, {"in", "out"}};

/* The template the window of kind k of p must have now, or NULL when it must be closed. */
static const char *wanted(Model *m, int p, WindowKind k)
{
    const Proc *pp = &m->procs[p];
    if (!pp->alive || pp->is_port)
        return NULL;
    switch (k) {
    case WIN_GC_MINOR: /* GC-RUNTIME: a young generation filling up */
        return tag_traced(m, p, "gc_minor_start") ? gc_template(m, p, "gc_minor_start", "gc_minor_end") : NULL;
    case WIN_GC_MAJOR: /* GC-RUNTIME: the old generation filling up, or fullsweep_after reached */
        return tag_traced(m, p, "gc_minor_start") ? gc_template(m, p, "gc_major_start", "gc_major_end") : NULL;
    case WIN_BLOCKED: /* RUN-BLOCKED-SIGNALS: scheduled in to handle a signal, back out to wait, in
                       * a receive or suspended on a busy port (RUN-SUSPENDED-BUSY-PORT) */
        if (!(pp->blocked || pp->suspended) || !running_traced(m, p))
            return NULL;
        return sched_template(m, p, "in", "out", pp->suspended ? running_suspended_mfa(m, p) : running_block_mfa(m),
                              WINDOW_RULES[k]);
    default: /* RUN-BLOCKED-INHERIT: opened by windows_signal_flags, kept until the wake-up */
        return pp->blocked && pp->windows[k].id ? pp->windows[k].tpl : NULL;
    }
}

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
        if (tpl && (answers_remove(m, p, WINDOW_TAGS[k][0]) || answers_remove(m, p, WINDOW_TAGS[k][1])))
            return refuse_remove(m);
        OpenWindow *w = &m->procs[p].windows[k];
        if (w->id && (!tpl || strcmp(tpl, w->tpl) != 0)) {
            allow_close(m, w->id, WINDOW_RULES[k]);
            w->id = 0;
        }
        if (tpl && !w->id) /* the pairs under new flags come after their handling (RUN-BLOCKED-INHERIT) */
            *w = (OpenWindow){allow_open(m, WINDOW_RULES[k], -1, k == WIN_BLOCKED ? signal->id : 0, tpl), tpl};
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
    const char *rule = WINDOW_RULES[WIN_SIGNAL_FLAGS];
    Point in = {"in", running_block_mfa(m), rule}, out = {"out", running_block_mfa(m), rule};
    return (BlockSchedule){allow_capture(m, p, fire_point, &in), allow_capture(m, p, fire_point, &out)};
}

bool windows_signal_flags(Model *m, int p, BlockSchedule before)
{
    BlockSchedule now = windows_block_schedule(m, p);
    if (!now.out || (before.out && strcmp(before.out, now.out) == 0))
        return true; /* not blocked, or its schedule looks as before: RUN-BLOCKED-SIGNALS covers it */
    if (answers_remove(m, p, "in") || answers_remove(m, p, "out"))
        return refuse_remove(m);
    const char *rule = WINDOW_RULES[WIN_SIGNAL_FLAGS];
    OpenWindow *w = &m->procs[p].windows[WIN_SIGNAL_FLAGS];
    if (w->id)
        allow_close(m, w->id, rule);
    /* scheduled in under the flags it had (no in line when they had no running), out under the new */
    const char *tpl = before.in ? joined(m, before.in, " ... ", now.out) : now.out;
    /* after the pairs under the old flags: the process handles the new ones only once they are done */
    *w = (OpenWindow){allow_open(m, rule, 1, m->procs[p].windows[WIN_BLOCKED].id, tpl), tpl};
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
            if (w->id)
                allow_close(m, w->id, WINDOW_RULES[k]);
            w->id = 0;
        }
    m->nwindowed = 0;
}

bool windows_wait(Model *m, int p, const Term *mfa, int limit, const char *rule, unsigned *id)
{
    *id = 0;
    if (!running_traced(m, p))
        return true;
    if (answers_remove(m, p, "in") || answers_remove(m, p, "out"))
        return refuse_remove(m);
    const char *tpl = sched_template(m, p, "out", "in", mfa, rule);
    if (tpl)
        *id = allow_open(m, rule, limit, 0, tpl);
    return true;
}

bool windows_delayed_gc(Model *m, int p, const Term *mfa, unsigned ids[2])
{
    ids[0] = ids[1] = 0;
    if (!running_traced(m, p))
        return true;
    const char *const(*GC)[2] = &WINDOW_TAGS[WIN_GC_MINOR]; /* minor, then major */
    const char *rule = "GC-RUNTIME-DELAYED";
    bool gc = tag_traced(m, p, "gc_minor_start");
    if (answers_remove(m, p, "in") || answers_remove(m, p, "out"))
        return refuse_remove(m);
    for (int k = 0; gc && k < 2; k++)
        if (answers_remove(m, p, GC[k][0]) || answers_remove(m, p, GC[k][1]))
            return refuse_remove(m);
    const char *yield = sched_template(m, p, "out", "in", mfa, rule);
    if (!yield)
        return true;
    if (!gc) { /* the collection is not traced: the yield alone */
        ids[0] = allow_open(m, rule, 1, 0, yield);
        return true;
    }
    for (int k = 0; k < 2; k++) { /* out and in at mfa, the collection right after the in (one segment) */
        const char *pair = gc_template(m, p, GC[k][0], GC[k][1]);
        if (pair)
            ids[k] = allow_open(m, rule, 1, 0, joined(m, yield, " ; ", pair));
    }
    return true;
}

void windows_end(Model *m, unsigned id, const char *rule)
{
    if (id)
        allow_close(m, id, rule);
}

/* True when the step's window asks no remove answer (removes is false); else the step is refused:
 * what the window would remove at is no fixed step (what names it). */
static bool refuse_remove_in_window(Model *m, bool removes, const char *what)
{
    return !removes || model_unsupported(m, m->step->line, m->step->col, what);
}

bool windows_killed_linked_ok(Model *m, int p)
{
    const Proc *pp = &m->procs[p];
    const char *what = "the in_exiting the runtime may leave out (RUN-KILLED-LINKED) of a process whose "
                       "tracer answers remove to it is";
    bool removes = !pp->blocked && tag_traced(m, p, "in_exiting") && answers_remove(m, p, "in_exiting");
    return refuse_remove_in_window(m, removes, what);
}

/* A window of rule for at most one instance of what fire(m, p, arg) writes, opened and closed at
 * once; none when that is no line. */
static void window_once(Model *m, int p, AllowFire fire, const void *arg, const char *rule)
{
    const char *tpl = allow_capture(m, p, fire, arg);
    if (tpl)
        allow_close(m, allow_open(m, rule, 1, 0, tpl), rule);
}

void windows_killed_linked(Model *m, int p)
{
    Point pt = {"in_exiting", term_int(m->a, 0), "RUN-FLAGS RUN-KILLED RUN-KILLED-LINKED"};
    window_once(m, p, fire_point, &pt, "RUN-KILLED-LINKED");
}

bool windows_killed_dirty_ok(Model *m, int p)
{
    const char *what = "the out_exiting the runtime may ask about on a dirty scheduler (RUN-KILLED-DIRTY-OUT) "
                       "of a process whose tracer answers remove to it is";
    return refuse_remove_in_window(m, !m->procs[p].blocked && answers_remove(m, p, "out_exiting"), what);
}

/* The enabled lines of a tracepoint whose trace callback cannot report (tracepoint_fire_unreported). */
static void fire_unreported(Model *m, int p, const void *arg)
{
    const Point *pt = arg;
    Event ev = {pt->tag, pt->term, NULL, NULL, pt->rules};
    tracepoint_fire_unreported(m, p, &ev);
}

void windows_killed_dirty(Model *m, int p)
{
    Point pt = {"out_exiting", term_int(m->a, 0), "RUN-FLAGS RUN-KILLED-DIRTY-OUT"};
    window_once(m, p, fire_unreported, &pt, "RUN-KILLED-DIRTY-OUT");
}

bool windows_killed_migrate_ok(Model *m, int p)
{
    const char *what = "the in_exiting and out_exiting the runtime may schedule before the exit "
                       "(RUN-KILLED-DIRTY-MIGRATE) of a process whose tracer answers remove to in_exiting is";
    return refuse_remove_in_window(m, !m->procs[p].blocked && answers_remove(m, p, "in_exiting"), what);
}

/* Two tracepoints, one after the other, each fired by one (fire_point or fire_unreported). */
typedef struct { AllowFire one; const Point *pts; } PointPair;

static void fire_pair(Model *m, int p, const void *arg)
{
    const PointPair *pair = arg;
    pair->one(m, p, &pair->pts[0]);
    pair->one(m, p, &pair->pts[1]);
}

void windows_killed_migrate(Model *m, int p, unsigned ids[2])
{
    const Term *zero = term_int(m->a, 0);
    const char *rules = "RUN-FLAGS RUN-KILLED-DIRTY-MIGRATE";
    Point pts[2] = {{"in_exiting", zero, rules}, {"out_exiting", zero, rules}};
    /* found by a normal scheduler (every line), or by a dirty one (enabled lines only) */
    const PointPair pairs[2] = {{fire_point, pts}, {fire_unreported, pts}};
    for (int k = 0; k < 2; k++) {
        const char *tpl = allow_capture(m, p, fire_pair, &pairs[k]);
        ids[k] = tpl ? allow_open(m, "RUN-KILLED-DIRTY-MIGRATE", 1, 0, tpl) : 0;
    }
}

bool windows_exit_yield_ok(Model *m, int p)
{
    const char *what = "the out_exiting and in_exiting of an exit that yields (RUN-KILLED-EXIT-YIELD) of a "
                       "process whose tracer answers remove to one of them is";
    return refuse_remove_in_window(m, answers_remove(m, p, "out_exiting") || answers_remove(m, p, "in_exiting"), what);
}

unsigned windows_exit_yield(Model *m, int p)
{
    const Term *zero = term_int(m->a, 0);
    const char *rules = "RUN-FLAGS RUN-KILLED-EXIT-YIELD";
    Point pts[2] = {{"out_exiting", zero, rules}, {"in_exiting", zero, rules}};
    const PointPair pair = {fire_point, pts};
    const char *tpl = allow_capture(m, p, fire_pair, &pair);
    return tpl ? allow_open(m, "RUN-KILLED-EXIT-YIELD", 1, 0, tpl) : 0;
}
