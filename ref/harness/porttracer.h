/* porttracer.h - a port as the legacy tracer, opened by the harness (PORT-TRACER). */
#ifndef TCS_PORTTRACER_H
#define TCS_PORTTRACER_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of `tracer port` (the harness's open_port/2), and the legacy
 * session's tracer from then on the port <port:tracer_port>, which gets the trace messages a
 * tracer process would get (their external term format, PORT-TRACER-MESSAGE). */
bool porttracer_step(Model *m, const Step *st);

#endif
