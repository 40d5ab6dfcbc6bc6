/* tracermod.h - the tracer a step names itself ({tracer, Module, State} in erlang:trace/3,
 * {meta, Module, State} in erlang:trace_pattern/3), and the tracer module's own life: purged
 * and deleted, loaded again on demand (CONFORMANCE.md section 2, "The tracer module"). */
#ifndef TCS_TRACERMOD_H
#define TCS_TRACERMOD_H
#include <stdbool.h>

#include "model.h"

/* What the runtime does with the tracer options of a step. */
typedef enum {
    TRACER_ACCEPTED, /* the call goes on, with *state (NULL: the harness's own tracer) */
    TRACER_BADARG,   /* erts refuses a tracer option: the call raises error:badarg */
    TRACER_UNDEF     /* erlang.erl calls Module:enabled/3 of a module that does not exist */
} TracerVerdict;

/* Guarantees: the verdict on the tracer options of a legacy `trace` step (meta false) or of a
 * function `pattern` step (meta true), with its rule IDs appended to rules and, when
 * accepted, the state the tracer gets (*state, NULL for the harness's); loading the recorder
 * on demand writes its probe line first (TRACER-LOAD-ON-DEMAND). False with err set for a
 * tracer the model does not describe. */
bool tracermod_check(Model *m, const Step *st, bool meta, TracerVerdict *verdict, const Term **state,
                     Buf *rules);
/* Guarantees: after a step the harness settles on (run.c decides which), while the tracer
 * module is gone, every scenario process waiting in the harness's gate has lost its tracer
 * (TRACER-UNLOADED-SETTLE): the settle wakes each; so has the step's actor (-1: none), which
 * left the gate for its step, blocked or suspended now or not. */
void tracermod_settled(Model *m, int actor);

/* Guarantees: the effect of `tracer unload`: the legacy tracer module is gone (TRACER-UNLOADED),
 * and every process blocked in a receive or suspended on a busy port has lost its tracer
 * (TRACER-UNLOADED-PURGE); false with err set for a case the model does not describe. */
bool tracermod_unload(Model *m, const Step *st);

/* Guarantees: the effect of `tracer reload`: code:load_file/1 of the legacy tracer module
 * (TRACER-RELOADED). */
bool tracermod_reload(Model *m, const Step *st);

#endif
