/* seqtracer.c - seq_trace:set_system_tracer/1 from the harness: the scenario's tracer becomes
 * the system seq tracer (CONFORMANCE.md section 2, "Sequential tracing", SEQ-TRACER). */
#include "control.h"
#include "enabled.h"
#include "seqtracer.h"

bool seqtracer_step(Model *m, const Step *st)
{
    if (m->seq_tracer)
        return model_unsupported(m, st->line, st->col, "setting the system seq tracer twice is");
    /* SEQ-TRACER: the control line leaves the module out and shows the state (<tracer>, or
     * the case's: STATE-ANY-TERM) */
    Buf call;
    buf_init(&call);
    buf_puts(&call, "seq_trace:set_system_tracer(");
    term_print(&call, m->sessions[LEGACY_SESSION].state_term, PRINT_CANON);
    buf_puts(&call, ")");
    /* SEQ-TRACER-PROBE: the runtime first asks the new tracer about no tracee; remove makes
     * the call raise badarg, and there is still no system seq tracer (discard counts as trace) */
    if (enabled_probe_as(m, enabled_session_tracer(m, LEGACY_SESSION), -1, "SEQ-TRACER-PROBE") == ANS_REMOVE) {
        control_line(m, buf_str(&call), "raises error:badarg", "SEQ-TRACER SEQ-TRACER-PROBE");
        buf_free(&call);
        return true;
    }
    /* SEQ-TRACER: the previous system seq tracer, none, is returned as false */
    control_line(m, buf_str(&call), "-> false", "SEQ-TRACER");
    buf_free(&call);
    m->seq_tracer = true;
    return true;
}
