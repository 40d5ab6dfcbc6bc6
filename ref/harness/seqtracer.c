/* seqtracer.c - seq_trace:set_system_tracer/1 from the harness: the scenario's tracer becomes
 * the system seq tracer (CONFORMANCE.md section 2, "Sequential tracing", SEQ-TRACER). */
#include "control.h"
#include "seqtracer.h"

bool seqtracer_step(Model *m, const Step *st)
{
    if (m->seq_tracer)
        return model_unsupported(m, st->line, st->col, "setting the system seq tracer twice is");
    /* SEQ-TRACER: the previous system seq tracer, none, is returned as false */
    control_line(m, "seq_trace:set_system_tracer(<tracer>)", "-> false", "SEQ-TRACER");
    m->seq_tracer = true;
    return true;
}
