/* timers.h - a BIF timer the harness aims at a process of the scenario and cancels
 * (erlang:start_timer/3, cancel_timer/1; TIMER-*, C-660). */
#ifndef TCS_TIMERS_H
#define TCS_TIMERS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of `start_timer A MS`, erlang:start_timer(MS, A, tcs_timer) -> _Ref, A's
 * timer armed; false with err set (refused) for an A not blocked in a receive, suspended or with
 * a timer, and for MS under 1000. */
bool timers_start(Model *m, const Step *st);
/* Guarantees: the ctl line of `cancel_timer A`, erlang:cancel_timer/1 of A's timer: its time
 * left (_Ms), or false on the release C-660 names when A was suspended while it was armed (the
 * timer then fires in the wait that must follow); false with err set (refused) for an A with no
 * timer or suspended. */
bool timers_cancel(Model *m, const Step *st);
/* Guarantees: A's armed timer marked paused: the harness suspends A (C-660's trigger). */
void timers_receiver_suspended(Model *m, int p);
/* Guarantees: false with err set (refused) for st while a timer is armed or must be waited for and
 * st is not a step model v1 takes then; a timer that must be waited for is done with once st, the
 * wait, is taken, its message delivered first on the release C-660 names. */
bool timers_before_step(Model *m, const Step *st);
/* Guarantees: false with err set (refused) when the case ends with a timer armed or to be waited
 * for. */
bool timers_end(Model *m);

#endif
