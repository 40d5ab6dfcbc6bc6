/* suspend.h - the harness suspends and resumes a process (erlang:suspend_process/1,
 * resume_process/1; SUSPEND-*, RUN-SUSPENDED). */
#ifndef TCS_SUSPEND_H
#define TCS_SUSPEND_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of `suspend A`: true, A's suspends one more; badarg for a dead A;
 * false with err set (refused) for an A not blocked in a receive. */
bool suspend_step(Model *m, const Step *st);
/* Guarantees: the ctl line of `resume A`: true, A's suspends one less, and A, resumed with a
 * message that came while it was suspended, woken to take it; badarg for a dead A or one the
 * harness does not hold suspended. */
bool suspend_resume(Model *m, const Step *st);
/* Guarantees: the ctl line of `status A`, process_info(A, status): {status,suspended} while the
 * harness holds A suspended, {status,waiting} for A blocked in a receive, undefined for a dead A;
 * false with err set (refused) for an A at its gate. */
bool suspend_status(Model *m, const Step *st);
/* Guarantees: why model v1 refuses st while the harness holds a process suspended (a signal
 * other than a message to it, a change of trace flags or tracers), or NULL. */
const char *suspend_refuses(const Model *m, const Step *st);

#endif
