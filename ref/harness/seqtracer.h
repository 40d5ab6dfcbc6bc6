/* seqtracer.h - seq_trace:set_system_tracer/1 from the harness (SEQ-TRACER). */
#ifndef TCS_SEQTRACER_H
#define TCS_SEQTRACER_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl line of `seq_trace tracer`. */
bool seqtracer_step(Model *m, const Step *st);

#endif
