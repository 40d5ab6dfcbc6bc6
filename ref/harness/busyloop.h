/* busyloop.h - a process busy in a loop of calls across the steps between `A loop M:F(Args)`
 * and `A idle`, while the harness changes patterns, counters and sessions under it
 * (CALL-BUSY-LOOP, C-447; erlang/otp#8835, C-448; OTP-19034, C-590). */
#ifndef TCS_BUSYLOOP_H
#define TCS_BUSYLOOP_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: `A loop M:F(Args)` (ST_LOOP): A's first call of the loop, certain, and a window of
 * the loop's other calls as A's trace stands; false (model_unsupported) where the model cannot
 * state the loop. */
bool busyloop_start(Model *m, int p, const Step *st);
/* Guarantees: `A idle` (ST_IDLE): a last call of A's loop as A's trace stands, certain, and every
 * window of the loop closed; false (model_unsupported) when A runs no loop. */
bool busyloop_stop(Model *m, int p, const Step *st);
/* Guarantees: true iff p runs a loop of a dirty NIF (tcs_nif:dirty_cpu/1, dirty_io/1). */
bool busyloop_dirty(const Model *m, int p);
/* Guarantees: NULL when p may do st (every step but its `idle` needs p out of its loop); else the
 * refusal's "what ... is". */
const char *busyloop_refuses(const Model *m, int p, const Step *st);
/* Guarantees: after any step st: for each loop still running, a window for its call as its trace
 * now stands (when no window of the loop has that template), the counters it passes marked
 * uncounted, OTP 25's #8835 prediction applied while a counter reset under a loop may still bite,
 * and false (model_unsupported) when the step left a loop the model cannot state, or the case
 * ends with a loop running. */
bool busyloop_after_step(Model *m, const Step *st);
/* Guarantees: a reset (restart, true, [] or false) of a running call_time or call_memory counter,
 * made now, noted for the #8835 prediction when some loop runs (C-448). */
void busyloop_counter_reset(Model *m);
/* Guarantees: true when a loop runs now under which some release's node may crash (#8835 after a
 * counter reset, C-448; OTP-19034 after a process spec, C-590), whichever release m predicts. */
bool busyloop_crash_possible(const Model *m);
/* Guarantees: erlang:trace/3 on a process spec (all, processes, existing), made now, noted for the
 * OTP-19034 prediction when some loop of a dirty NIF runs (C-590). */
void busyloop_spec_trace(Model *m);
/* Guarantees: false with the model's error when every step ran and a loop still runs (a case
 * must end its loops with idle); else every window of every loop closed (a run that stopped
 * early, at a crash, leaves its loops running). */
bool busyloop_end(Model *m, bool every_step_ran);

#endif
