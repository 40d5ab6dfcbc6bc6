/* control.c - the harness's calls into the tracing BIFs and what they return
 * (CONFORMANCE.md section 2, CTL-* rules); trace_pattern/3 is in ref/patterns.c. */
#include <string.h>

#include "model.h"

void control_line(Model *m, const char *call, const char *result, const char *rules)
{
    Buf body;
    buf_init(&body);
    buf_printf(&body, "ctl %s %s", call, result);
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
}

bool control_trace(Model *m, const Step *st)
{
    int p = st->new_ports ? -1 : model_proc(m, st->actor);
    TraceState *ts = p < 0 ? &m->sessions[LEGACY_SESSION].new_ports : &m->procs[p].trace[LEGACY_SESSION];
    Buf call;
    buf_init(&call);
    buf_puts(&call, "erlang:trace(");
    if (p < 0)
        buf_puts(&call, "new_ports");
    else
        model_print_id(&call, m, p);
    buf_printf(&call, ",%s,[", st->on ? "true" : "false");
    FlagSet set = 0;
    for (int i = 0; i < st->nflags; i++) {
        if (i)
            buf_puts(&call, ",");
        term_print_atom(&call, flag_name(st->flags[i]));
        set |= FLAG_BIT(st->flags[i]);
    }
    buf_puts(&call, "])");
    if ((p >= 0 && !m->procs[p].alive) || (set & FLAG_BIT(FL_CPU_TIMESTAMP))) {
        /* dead tracee; cpu_timestamp is only allowed with Procs == all (seen live) */
        control_line(m, buf_str(&call), "raises error:badarg", "CTL-TRACE");
        buf_free(&call);
        return true;
    }
    /* STATUS-PROBE, during the call; new_ports has no tracee to probe yet */
    Answer ans = p < 0 || !st->on ? ANS_TRACE : enabled_probe(m, LEGACY_SESSION, p);
    sessions_set_flags(m, ts, set, st->on, ans);
    /* CTL-TRACE: one tracee; PORTS-NEW: new_ports matches no existing port */
    control_line(m, buf_str(&call), p < 0 ? "-> 0" : "-> 1", p < 0 ? "CTL-TRACE PORTS-NEW" : "CTL-TRACE");
    buf_free(&call);
    return true;
}
