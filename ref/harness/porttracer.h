/* porttracer.h - a port as the legacy tracer, opened by the harness (PORT-TRACER). */
#ifndef TCS_PORTTRACER_H
#define TCS_PORTTRACER_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of `tracer port` (the harness's open_port/2), and the legacy
 * session's tracer from then on the port <port:tracer_port>, which gets the trace messages a
 * tracer process would get (their external term format, PORT-TRACER-MESSAGE). */
bool porttracer_step(Model *m, const Step *st);

/* Guarantees: `kill_all tracer P... [rounds N]` (ST_KILL_ALL): the tracer port's owner killed, then
 * each P, in one burst: the port closed as by `tracer exit` (PORT-TRACER-DEAD), each P dead with
 * reason killed and no event line, and no line of the harness's other N - 1 bursts (KILL-ALL-ROUNDS);
 * C-502's may-crash prediction when a P waited at its gate traced for running_procs or running;
 * false (model_unsupported) for a P the model cannot state, or rounds where the case would see the
 * harness's own processes (a '_':'_'/'_' pattern, the legacy system monitor). */
bool porttracer_kill_all(Model *m, const Step *st);

#endif
