/* sysmon.c - a trace session's system monitoring (CONFORMANCE.md section 2, "Trace
 * sessions", SESSION-SYSTEM*): which events trace:system/3 accepts with which values, and
 * what trace:info(S, system, all) lists; and the legacy system monitor's settings
 * (erlang:system_monitor/0,1,2, SYSMON-LEGACY-*). The monitor messages are the events' (the
 * long message queues: ref/events/longmsgq.c, the large heaps: ref/events/largeheap.c, the busy
 * ports: ref/events/drvports.c, the long schedules: ref/events/longsched.c); no step provokes a
 * long garbage collection. */
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "longsched.h"
#include "sysmon.h"

enum { LMQ_ENABLE_FLOOR = 10, LARGE_HEAP_FLOOR = 1000000, LEGACY_LARGE_HEAP_FLOOR = 65535 };

void sysmon_clear(SystemMonitor *sm)
{
    *sm = (SystemMonitor){.large_heap = -1, .long_schedule = -1, .long_gc = -1};
}

/* The limit of an event that takes a non-negative integer, or NULL for another event. */
static long long *limit_of(SystemMonitor *sm, const char *event)
{
    if (strcmp(event, "large_heap") == 0)
        return &sm->large_heap;
    if (strcmp(event, "long_schedule") == 0)
        return &sm->long_schedule;
    if (strcmp(event, "long_gc") == 0)
        return &sm->long_gc;
    return NULL;
}

/* The flag of busy_port or busy_dist_port, or NULL for another event. */
static bool *flag_of(SystemMonitor *sm, const char *event)
{
    if (strcmp(event, "busy_port") == 0)
        return &sm->busy_port;
    if (strcmp(event, "busy_dist_port") == 0)
        return &sm->busy_dist_port;
    return NULL;
}

/* Sets event to value in sm; false if trace:system/3 refuses the pair (SESSION-SYSTEM). */
static bool apply(SystemMonitor *sm, const char *event, const Term *value)
{
    bool off = term_is_atom(value, "false");
    long long *limit = limit_of(sm, event);
    bool *flag = flag_of(sm, event);
    if (limit) { /* "a limit of that event": a non-negative integer */
        if (!off && (value->kind != TK_INT || value->u.i < 0))
            return false;
        *limit = off ? -1 : value->u.i;
        /* 003: "Some of the events have an unspecified minimum value"; OTP raises a time limit
         * below 1 ms to 1 (C-440); large_heap's minimum is below the model's floor, below */
        if (*limit == 0 && limit != &sm->large_heap)
            *limit = 1;
        return true;
    }
    if (flag) { /* busy_port, busy_dist_port: true */
        if (!off && !term_is_atom(value, "true"))
            return false;
        *flag = !off;
        return true;
    }
    if (strcmp(event, "long_message_queue") != 0)
        return false;
    if (off) {
        sm->lmq_enable = 0;
        return true;
    }
    /* "Enable must be an integer larger than zero. Disable must be an integer larger than or
     * equal to zero and smaller than Enable." */
    if (value->kind != TK_TUPLE || value->u.tuple.n != 2 || value->u.tuple.el[0]->kind != TK_INT ||
        value->u.tuple.el[1]->kind != TK_INT)
        return false;
    long long disable = value->u.tuple.el[0]->u.i, enable = value->u.tuple.el[1]->u.i;
    if (enable <= 0 || disable < 0 || disable >= enable)
        return false;
    sm->lmq_disable = disable;
    sm->lmq_enable = enable;
    return true;
}

const char *sysmon_set(Model *m, int s, const Term *event, const Term *value, const char **rules)
{
    Session *ses = &m->sessions[s];
    if (ses->tracer->kind != TRACER_PROCESS) { /* "The session tracer must be a process" */
        *rules = "SESSION-SYSTEM SESSION-SYSTEM-TRACER";
        return "raises error:badarg";
    }
    *rules = "SESSION-SYSTEM";
    SystemMonitor next = ses->sysmon;
    if (event->kind != TK_ATOM || !apply(&next, event->u.name, value))
        return "raises error:badarg";
    if (next.lmq_enable > 0 && next.lmq_enable < LMQ_ENABLE_FLOOR) {
        /* every process of the node is monitored, the harness's own too, whose queues the
         * model does not know (C-138) */
        model_unsupported(m, m->step->line, m->step->col,
                          "long_message_queue with Enable below 10 (the harness's own processes would reach it) is");
        return NULL;
    }
    if (next.large_heap >= 0 && next.large_heap < LARGE_HEAP_FLOOR) {
        /* the harness's own processes may have heaps of some megabytes (C-139) */
        model_unsupported(m, m->step->line, m->step->col,
                          "large_heap below 1000000 words (the harness's own heaps could reach it) is");
        return NULL;
    }
    if (strcmp(event->u.name, "long_message_queue") == 0)
        for (int p = 0; p < m->nprocs; p++)
            if (m->procs[p].alive && m->procs[p].trace[s].long_queue) {
                /* OTP keeps the process "long" for the session until a later receive or a
                 * cleanup of its own finds the new limits (SYSMON-LONG-MSGQ) */
                model_unsupported(m, m->step->line, m->step->col,
                                  "changing long_message_queue while the session holds a process's queue long is");
                return NULL;
            }
    if (next.long_schedule >= 0 && !next.ls_nwindows) /* SYSMON-LONG-SCHEDULE-ANY: from now on */
        next.ls_windows = longsched_watch(m, ses->state, &next.ls_nwindows);
    if (next.long_schedule < 0 && next.ls_nwindows) {
        longsched_unwatch(m, next.ls_windows, next.ls_nwindows);
        next.ls_nwindows = 0;
    }
    ses->sysmon = next;
    return "-> ok";
}

/* {Name, Value} */
static Term *pair(Model *m, const char *name, Term *value)
{
    return term_tuple3(m->a, term_atom(m->a, name), value, NULL);
}

Term *sysmon_info(Model *m, int s)
{
    const SystemMonitor *sm = &m->sessions[s].sysmon;
    Term *el[6];
    size_t n = 0;
    if (sm->busy_dist_port)
        el[n++] = term_atom(m->a, "busy_dist_port");
    if (sm->busy_port)
        el[n++] = term_atom(m->a, "busy_port");
    if (sm->large_heap >= 0)
        el[n++] = pair(m, "large_heap", term_int(m->a, sm->large_heap));
    if (sm->long_schedule >= 0)
        el[n++] = pair(m, "long_schedule", term_int(m->a, sm->long_schedule));
    if (sm->long_gc >= 0)
        el[n++] = pair(m, "long_gc", term_int(m->a, sm->long_gc));
    if (sm->lmq_enable > 0)
        el[n++] = pair(m, "long_message_queue",
                       term_tuple3(m->a, term_int(m->a, sm->lmq_disable), term_int(m->a, sm->lmq_enable), NULL));
    return pair(m, "system", term_list(m->a, n, el));
}

/* format("<name>", limit) in the arena: the text of a call or an answer naming the monitor. */
static const char *with_monitor(Model *m, const char *format, const char *name, long long limit)
{
    char text[256];
    int n = snprintf(text, sizeof text, format, name, limit);
    return arena_strndup(m->a, text, n < 0 ? 0 : (size_t)n);
}

/* The legacy monitor's settings as erlang:system_monitor/0 answers them: {<P>,[{Event,N}]},
 * or undefined. */
static const char *legacy_settings(Model *m)
{
    if (!m->legacy_monitor)
        return "-> undefined";
    char format[64];
    snprintf(format, sizeof format, "-> {<%%s>,[{%s,%%lld}]}", m->legacy_event);
    return with_monitor(m, format, m->legacy_monitor, m->legacy_limit);
}

/* True iff after st a harness's or the runtime's process may have a heap of 65535 words or more
 * (C-640): st loads or purges code (the code_server's heap: 86071 to 139267 words after it),
 * calls a function (a library or fixture function may build or return a long term, or load a
 * module), loops, opens a port, starts a peer node, spawns an entry point, or writes a term of
 * more than TERM_BIG_BYTES (the job process builds it, the tracer's collector gets it). */
enum { TERM_BIG_BYTES = 8192 };
static bool grows_heaps(const Step *st)
{
    switch (st->kind) {
    case ST_CALL:
    case ST_LOOP:
    case ST_TRACER_RELOAD_BUSY:
    case ST_TRACER_UNLOAD:
    case ST_TRACER_RELOAD:
    case ST_MODULE_UNLOAD:
    case ST_MODULE_LOAD:
    case ST_OPEN_PORT:
    case ST_PEER:
        return true;
    case ST_SPAWN:
    case ST_SPAWN_LINK:
        if (st->term) /* an entry point, {lists,seq,[From,To]} */
            return true;
        break;
    default:
        break;
    }
    const Term *terms[] = {st->term, st->args, st->sargs};
    for (size_t t = 0; t < sizeof terms / sizeof *terms; t++)
        if (terms[t] && term_bytes(terms[t], TERM_BIG_BYTES) > TERM_BIG_BYTES)
            return true;
    return false;
}

/* The refusal of a legacy system monitor with such a step before it or while it is set. */
static const char *grown_heaps_refusal(void)
{
    const char *unsupported =
        "the legacy system monitor with a step that may give the harness's or the runtime's processes large heaps (a "
        "call, loop, port, peer, entry point, code loading or a term over 8192 bytes) before it is set or while it is";
    return unsupported;
}

/* True iff a long_schedule monitor, the legacy one or a session's, has its windows open. */
static bool long_schedule_watched(const Model *m)
{
    if (m->legacy_nwindows)
        return true;
    for (int s = 1; s < m->nsessions; s++)
        if (m->sessions[s].sysmon.ls_nwindows)
            return true;
    return false;
}

/* True iff st adds a process, port or tracer process to the node, or ends a tracer process or a
 * session, which the windows of a long_schedule monitor name one by one (C-730). */
static bool changes_subjects(const Step *st)
{
    StepKind k = st->kind;
    if (k == ST_SESSION)
        return st->sop == SO_CREATE || st->sop == SO_DESTROY || st->sop == SO_DROP;
    return k == ST_SPAWN || k == ST_SPAWN_LINK || k == ST_OPEN_PORT || k == ST_PEER || k == ST_TRACER_EXIT;
}

const char *sysmon_legacy_refuses(Model *m, const Step *st)
{
    if (long_schedule_watched(m) && changes_subjects(st)) {
        const char *unsupported = "a spawn, a port, a peer, a session created, destroyed or dropped or the tracer's "
                                  "exit while a long_schedule monitor is set is";
        return unsupported;
    }
    if (!grows_heaps(st))
        return NULL;
    m->heaps_grown = true;
    bool large_heap = m->legacy_monitor && strcmp(m->legacy_event, "large_heap") == 0;
    return large_heap ? grown_heaps_refusal() : NULL;
}

/* The legacy monitor's long_schedule windows closed, if open. */
static void legacy_unwatch(Model *m)
{
    longsched_unwatch(m, m->legacy_windows, m->legacy_nwindows);
    m->legacy_nwindows = 0;
}

void sysmon_end(Model *m)
{
    legacy_unwatch(m);
    for (int s = 1; s < m->nsessions; s++) {
        SystemMonitor *sm = &m->sessions[s].sysmon;
        longsched_unwatch(m, sm->ls_windows, sm->ls_nwindows);
        sm->ls_nwindows = 0;
    }
}

/* The limit erlang:system_monitor(P, [{large_heap, N}]) or [{long_schedule, N}] sets into *limit;
 * false with err set for one model v1 refuses. */
static bool legacy_limit(Model *m, const Step *st, long long *limit)
{
    *limit = st->term->u.i;
    if (strcmp(st->item, "long_schedule") == 0) {
        if (strcmp(st->other, "tracer") != 0) /* its messages could come at any step */
            return model_unsupported(m, st->line, st->other_col,
                                     "a long_schedule monitor that is a scenario process (not the tracer) is");
        if (*limit < 0)
            return model_unsupported(m, st->line, st->term_col, "a negative long_schedule limit is");
        if (*limit < 1) /* OTP raises a time limit below 1 ms to 1 (C-440) */
            *limit = 1;
        return true;
    }
    if (*limit < LEGACY_LARGE_HEAP_FLOOR)
        return model_unsupported(m, st->line, st->term_col,
                                 "large_heap below 65535 words (the harness's own heaps could reach it) is");
    if (m->heaps_grown)
        return model_unsupported(m, st->line, st->col, grown_heaps_refusal());
    return true;
}

/* erlang:system_monitor(P, [{Event, N}]) (SYSMON-LEGACY-SET) */
static bool legacy_set(Model *m, const Step *st)
{
    long long limit;
    if (!legacy_limit(m, st, &limit))
        return false;
    const char *before = legacy_settings(m);
    legacy_unwatch(m);
    m->legacy_monitor = st->other;
    m->legacy_event = st->item;
    m->legacy_limit = limit;
    char format[64];
    snprintf(format, sizeof format, "erlang:system_monitor(<%%s>,[{%s,%%lld}])", st->item);
    control_line(m, with_monitor(m, format, st->other, st->term->u.i), before, "SYSMON-LEGACY-SET");
    if (strcmp(st->item, "long_schedule") == 0) /* SYSMON-LONG-SCHEDULE-ANY: from now on */
        m->legacy_windows = longsched_watch(m, st->other, &m->legacy_nwindows);
    return true;
}

bool sysmon_legacy_step(Model *m, const Step *st)
{
    if (!st->other) {
        control_line(m, "erlang:system_monitor()", legacy_settings(m),
                     m->legacy_monitor ? "SYSMON-LEGACY-SET" : "SYSMON-LEGACY-APART");
        return true;
    }
    if (st->term)
        return legacy_set(m, st);
    const char *before = legacy_settings(m); /* system_monitor(undefined) */
    legacy_unwatch(m);
    m->legacy_monitor = NULL;
    control_line(m, "erlang:system_monitor(undefined)", before, "SYSMON-LEGACY-SET");
    return true;
}
