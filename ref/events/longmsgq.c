/* longmsgq.c - the long_message_queue monitor of trace sessions (CONFORMANCE.md section 2,
 * "System monitoring in a session", SYSMON-LONG-MSGQ): each session that monitors the event
 * watches every process's queue length against its own limits {Disable, Enable}, and tells its
 * tracer process once when the queue reaches Enable and once when it falls back to Disable. */
#include "longmsgq.h"
#include "sysmsg.h"

/* A session whose monitor messages can be sent: alive, monitoring long message queues. */
static bool monitors(const Model *m, int s)
{
    return m->sessions[s].life == LIFE_ALIVE && m->sessions[s].sysmon.lmq_enable > 0;
}

void longmsgq_grew(Model *m, int p)
{
    for (int s = 1; s < m->nsessions; s++) {
        TraceState *ts = &m->procs[p].trace[s];
        if (!monitors(m, s) || ts->long_queue || (long long)m->procs[p].mlen < m->sessions[s].sysmon.lmq_enable)
            continue;
        ts->long_queue = true;
        sysmsg_monitor(m, s, p, "long_message_queue", term_atom(m->a, "true"), "SYSMON-LONG-MSGQ SYSMON-MESSAGE");
    }
}

void longmsgq_shrank(Model *m, int p)
{
    for (int s = 1; s < m->nsessions; s++) {
        TraceState *ts = &m->procs[p].trace[s];
        if (!monitors(m, s) || !ts->long_queue || (long long)m->procs[p].mlen > m->sessions[s].sysmon.lmq_disable)
            continue;
        ts->long_queue = false;
        sysmsg_monitor(m, s, p, "long_message_queue", term_atom(m->a, "false"), "SYSMON-LONG-MSGQ SYSMON-MESSAGE");
    }
}
