/* windows.h - what the runtime adds that the model cannot predict, as allowance windows
 * (CONFORMANCE.md section 2, "Runtime additions"; PROTOCOLS.md section 6). */
#ifndef TCS_WINDOWS_H
#define TCS_WINDOWS_H

#include "model.h"

/* Guarantees: p's windows match its state, each closed when it no longer applies or its
 * template changed and opened anew: runtime-started minor and major collections while p is
 * traced for garbage_collection (GC-RUNTIME), scheduling in and out at tcs_puppet:block/0 while
 * it is blocked in a receive and traced for running (RUN-BLOCKED-SIGNALS); false with the error
 * set (the model refuses the step) when a tracer would answer remove to such an addition. */
bool windows_sync(Model *m, int p);
/* Guarantees: windows_sync of every process a step can have changed the state of: the tracee of
 * a trace step on one process, the actor and the other process of a process's step, the
 * processes with open windows; every process after another harness step; false as windows_sync. */
bool windows_after_step(Model *m, const Step *st);
/* Guarantees: every open window closed (the end of the scenario). */
void windows_close_all(Model *m);
/* Guarantees: when p is traced for running, a window for up to limit (< 0: any number) waits of
 * p in the function mfa, each an out then an in there, with lines of the step between
 * (RUN-WAIT-OPEN-PORT, RUN-WAIT-CODE-LOAD, RUN-WAIT-PORT-SIGNALS); its id in *id, 0 when p is not
 * traced for running; false with the error set when a tracer would answer remove to it. */
bool windows_wait(Model *m, int p, const Term *mfa, int limit, const char *rule, unsigned *id);
/* Guarantees: window id (opened by windows_wait with rule) closed, if not 0. */
void windows_end(Model *m, unsigned id, const char *rule);
/* Guarantees: false with the error set (the model refuses the step) when p, killed through a
 * link while it waits in the gate, is traced for in_exiting by a tracer that would answer remove
 * to it (RUN-KILLED-LINKED: whether that line comes is a race); true otherwise. */
bool windows_killed_linked_ok(Model *m, int p);
/* Guarantees: instead of p's in_exiting (RUN-KILLED), a window for at most one of it, opened and
 * closed at once: p, killed through a link while it waits in the gate, is scheduled in exiting
 * only when the exit signal is handled before the harness wakes it (RUN-KILLED-LINKED, C-134). */
void windows_killed_linked(Model *m, int p);

#endif
