/* suspend.h - the harness or a process of the scenario suspends and resumes a process
 * (erlang:suspend_process/1,2, resume_process/1; SUSPEND-*, RUN-SUSPENDED). */
#ifndef TCS_SUSPEND_H
#define TCS_SUSPEND_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of `suspend A`: true, A's suspends one more; badarg for a dead A;
 * false with err set (refused) for an A not blocked in a receive. */
bool suspend_step(Model *m, const Step *st);
/* Guarantees: the ctl line of `resume A`: true, the harness's suspends of A one less, and A, no
 * longer suspended and with a message that came while it was, woken to take it; badarg for a dead
 * A or one the harness does not hold suspended. */
bool suspend_resume(Model *m, const Step *st);
/* Guarantees: the ctl line of `P suspend Q` (p is P): true, P's suspends of Q one more; badarg for
 * Q dead or Q P itself; false with err set (refused) for Q not blocked in a receive, or with
 * links or monitors. */
bool suspend_by_process(Model *m, int p, const Step *st);
/* Guarantees: the ctl line of `P resume Q` (p is P): true, P's suspends of Q one less, and Q, no
 * longer suspended, woken as `resume` wakes it; badarg for Q dead, Q P itself, or Q P does not
 * hold suspended. */
bool suspend_resume_by_process(Model *m, int p, const Step *st);
/* Guarantees: every suspend held by a process that has exited lifted, and each process no longer
 * suspended so woken as `resume` wakes it (SUSPEND-SUSPENDER-EXIT). */
void suspend_lift_exited(Model *m);
/* Guarantees: the ctl line of `status A`, process_info(A, status): {status,suspended} while A is
 * suspended, {status,waiting} for A blocked in a receive, undefined for a dead A;
 * false with err set (refused) for an A at its gate. */
bool suspend_status(Model *m, const Step *st);
/* Guarantees: why model v1 refuses st while a process is suspended (a signal other than a
 * message to it, a change of trace flags or tracers), or NULL. */
const char *suspend_refuses(const Model *m, const Step *st);

#endif
