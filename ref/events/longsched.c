/* longsched.c - the long_schedule monitor (CONFORMANCE.md section 2, "System monitoring in a
 * session", SYSMON-LONG-SCHEDULE, SYSMON-LEGACY-LONG-SCHEDULE; C-730): of the legacy system
 * monitor (erlang:system_monitor/2) and of trace sessions (trace:system/3). Its trigger is
 * wall-clock time, so a lower bound is all a case can make certain: a process that sleeps Ms
 * milliseconds in a NIF on its normal scheduler (tcs_nif:sleep/1) runs uninterrupted at least that
 * long, and a monitor whose limit is Ms or less must get a message about it. Any process of the
 * node may run that long on a loaded machine, the harness's, the runtime's and the case's
 * alike: from the moment a monitor is set to the moment it is cleared, a window admits any
 * number of messages about each of them (the documents promise nothing either way). */
#include <string.h>

#include "control.h"
#include "longsched.h"
#include "races.h"
#include "sysmsg.h"

/* One window of messages to receiver about subject. */
static void watch_one(Model *m, const char *receiver, Term *subject, unsigned *first, int *n)
{
    Term *info = term_placeholder(m->a, "_Info");
    unsigned w = races_open(m, RACE_LONG_SCHEDULE, 0, sysmsg_template_about(m, receiver, subject, "long_schedule", info));
    if (*n == 0)
        *first = w;
    ++*n;
}

unsigned longsched_watch(Model *m, const char *receiver, int *n)
{
    unsigned first = 0;
    *n = 0;
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].alive)
            watch_one(m, receiver, model_id(m, p), &first, n);
    for (int s = 0; s < m->nsessions; s++) {
        const Session *ses = &m->sessions[s];
        bool process = ses->tracer->kind == TRACER_PROCESS && !ses->state_dead &&
                       (s == LEGACY_SESSION || ses->life == LIFE_ALIVE);
        /* the dispatcher drops a message about its receiver (SYSMON-LEGACY-SELF) */
        if (process && strcmp(ses->state, receiver) != 0)
            watch_one(m, receiver, term_pid(m->a, ses->state), &first, n);
    }
    watch_one(m, receiver, term_placeholder(m->a, "<?>"), &first, n);
    watch_one(m, receiver, term_placeholder(m->a, "<port:?>"), &first, n);
    return first;
}

void longsched_unwatch(Model *m, unsigned first, int n)
{
    for (int i = 0; i < n; i++)
        races_close(m, RACE_LONG_SCHEDULE, first + (unsigned)i);
}

void longsched_ran(Model *m, int p, long long ms)
{
    Term *info = term_placeholder(m->a, "_Info");
    long long limit = m->legacy_event && strcmp(m->legacy_event, "long_schedule") == 0 ? m->legacy_limit : -1;
    if (m->legacy_monitor && limit >= 0 && limit <= ms)
        sysmsg_legacy_monitor(m, p, "long_schedule", info, "SYSMON-LEGACY-LONG-SCHEDULE SYSMON-MESSAGE");
    for (int s = 1; s < m->nsessions; s++) {
        limit = m->sessions[s].sysmon.long_schedule;
        if (m->sessions[s].life == LIFE_ALIVE && limit >= 0 && limit <= ms)
            sysmsg_monitor(m, s, p, "long_schedule", info, "SYSMON-LONG-SCHEDULE SYSMON-MESSAGE");
    }
}
