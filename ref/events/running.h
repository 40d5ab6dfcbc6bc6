/* running.h - scheduling of processes: blocking receive, exiting (RUN-*). */
#ifndef TCS_RUNNING_H
#define TCS_RUNNING_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: a trace session has ended: every live process of this node may be woken once in a
 * wait, the one it is blocked in now or its next (RUN-WAKE-SESSION-END, C-820): a window for
 * that wait; false when the model refuses it (races_row(RACE_WAKE_SESSION_END)'s refusal). */
bool running_session_ended(Model *m);
/* Guarantees: at the end of the run, every RUN-WAKE-SESSION-END window still open (a wait that
 * never ended: a process blocked at the end, or one that died in its wait) is closed. */
void running_end(Model *m);
/* Guarantees: p blocks in a receive: its scheduled-out line (RUN-BLOCK); false when the model
 * refuses the wait (RUN-WAKE-SESSION-END's window). */
bool running_block(Model *m, int p);
/* Guarantees: a message reached blocked p: its scheduled-in line; p is no longer blocked. */
void running_wake(Model *m, int p);
/* Guarantees: p waits in a receive with a timeout N > 0 on an empty mailbox until the timer fires:
 * its scheduled-out then scheduled-in line, both at {tcs_puppet,act,1} (RUN-TIMEOUT); false when
 * the model refuses the wait (RUN-WAKE-SESSION-END's window). */
bool running_timed_wait(Model *m, int p);
/* Guarantees: p calls the dirty NIF mfa: scheduled out of its scheduler there, and in there on the
 * dirty scheduler (RUN-DIRTY-NIF); its way back is the harness's (RUN-HARNESS). */
void running_dirty_nif(Model *m, int p, const Term *mfa);
/* Guarantees: p calls erlang:yield/0 in the fixture function mfa: scheduled out there and back
 * in there, exactly one pair (RUN-YIELD). */
void running_yield(Model *m, int p, const Term *mfa);
/* Guarantees: the scheduling line of p, killed by a signal while not blocked, scheduled in
 * to exit (RUN-KILLED). */
void running_killed(Model *m, int p);
/* Guarantees: the scheduling line of p leaving the system after its exit (RUN-EXITED). */
void running_exited(Model *m, int p);

#endif
