/* seqtracer.c - seq_trace:set_system_tracer/1 from the harness: the scenario's tracer becomes
 * the system seq tracer (CONFORMANCE.md section 2, "Sequential tracing", SEQ-TRACER). */
#include "control.h"
#include "enabled.h"
#include "seqtracer.h"

bool seqtracer_step(Model *m, const Step *st)
{
    if (m->seq_tracer)
        return model_unsupported(m, st->line, st->col, "setting the system seq tracer twice is");
    /* SEQ-TRACER-PROBE: the runtime first asks the new tracer about no tracee; remove makes
     * the call raise badarg, and there is still no system seq tracer (discard counts as trace) */
    if (enabled_probe_as(m, enabled_session_tracer(m, LEGACY_SESSION), -1, "SEQ-TRACER-PROBE") == ANS_REMOVE) {
        control_line(m, "seq_trace:set_system_tracer(<tracer>)", "raises error:badarg",
                     "SEQ-TRACER SEQ-TRACER-PROBE");
        return true;
    }
    /* SEQ-TRACER: the previous system seq tracer, none, is returned as false */
    control_line(m, "seq_trace:set_system_tracer(<tracer>)", "-> false", "SEQ-TRACER");
    m->seq_tracer = true;
    return true;
}
