/* windows.h - what the runtime adds that the model cannot predict, as allowance windows
 * (CONFORMANCE.md section 2, "Runtime additions"; PROTOCOLS.md section 6). */
#ifndef TCS_WINDOWS_H
#define TCS_WINDOWS_H

#include "model.h"
#include "races.h"

/* Guarantees: p's windows match its state, each closed when it no longer applies or its
 * template changed and opened anew: runtime-started minor and major collections while p is
 * traced for garbage_collection (GC-RUNTIME), scheduling in and out at tcs_puppet:block/0 while
 * it is blocked in a receive and traced for running, or at erts_internal:port_command/3 while
 * it is suspended on a busy port (RUN-BLOCKED-SIGNALS), a RUN-BLOCKED-INHERIT
 * window (windows_signal_flags) closed at its wake-up; false with the error
 * set (the model refuses the step) when a tracer would answer remove to such an addition. */
bool windows_sync(Model *m, int p);
/* The lines p's schedule at tcs_puppet:block/0 would write now: its in and its out templates (NULL
 * when p is not blocked in a receive, or a template writes no line). */
typedef struct BlockSchedule { const char *in, *out; } BlockSchedule;

/* Guarantees: p's schedule at tcs_puppet:block/0 as its flags give it now; both NULL when p is not
 * blocked in a receive. Writes no line. */
BlockSchedule windows_block_schedule(Model *m, int p);
/* Guarantees: when p is blocked in a receive and its flags, just changed by a signal it handles
 * (before: its schedule until then), give its scheduling other lines, a window for at most one
 * schedule in which it handles that signal, open until it is woken: in as before (no in line when
 * it was not traced for running) ... out as now (RUN-BLOCKED-INHERIT); a window of this kind still
 * open is closed first; false with the error set when a tracer would answer remove to it. */
bool windows_signal_flags(Model *m, int p, BlockSchedule before);
/* Guarantees: windows_sync of every process a step can have changed the state of: the tracee of
 * a trace step on one process, the actor and the other process of a process's step, the
 * processes with open windows; every process after another harness step, and after any step in
 * which the tracer module came back (tracer_back: TRACER-LOAD-ON-DEMAND, `tracer reload` after
 * `tracer unload`); false as windows_sync. */
bool windows_after_step(Model *m, const Step *st, bool tracer_back);
/* Guarantees: every open window closed (the end of the scenario). */
void windows_close_all(Model *m);
/* Guarantees: when p is traced for running, a window of race r for up to its limit waits of
 * p in the function mfa, each an out then an in there, with lines of the step between
 * (RUN-WAIT-OPEN-PORT, RUN-WAIT-CODE-LOAD, RUN-WAIT-PORT-SIGNALS); its id in *id, 0 when p is not
 * traced for running; false with the error set when a tracer would answer remove to it. Also
 * RUN-PREEMPT-CODE-LOAD, RUN-WAIT-PORT-OP-REPLY, RUN-WAKE-LINK-DOWN. Close it with races_close. */
bool windows_wait(Model *m, int p, const Term *mfa, Race r, unsigned *id);
/* Guarantees: when p is traced for running, windows for a collection the runtime starts while a
 * BIF has collections delayed (GC-RUNTIME-DELAYED): p scheduled out and back in at mfa, at most
 * once (ids[0]); when p is traced for garbage_collection too, two windows instead, the in followed
 * at once by a whole minor pair (ids[0]), or a whole major pair (ids[1]), at most one instance
 * each; the ids are 0 when there is none; false with the error set when a tracer would answer
 * remove to it. */
bool windows_delayed_gc(Model *m, int p, const Term *mfa, unsigned ids[2]);
/* Guarantees: false with the error set (the model refuses the step) when p, killed by an exit
 * signal while it waits in the gate (through a link for RUN-KILLED-LINKED; or anywhere for
 * RUN-KILLED-EXIT-YIELD), is traced by a tracer that would answer remove to one of the tags race
 * r asks (whether those lines come is a race); true otherwise, and when p is blocked in a receive
 * (woken to exit, RUN-WAKE), but for RUN-KILLED-EXIT-YIELD. */
bool windows_exit_ok(Model *m, int p, Race r);
/* Guarantees: the windows of race r for p, killed by an exit signal, each for at most one instance
 * of its template, term 0; an id is 0 for a window without a line; ids is NULL for the first:
 * - RUN-KILLED-LINKED: instead of p's in_exiting (RUN-KILLED), a window for at most one of it, opened and
 * closed at once: p, killed through a link while it waits in the gate, is scheduled in exiting
 * only when the exit signal is handled before the harness wakes it (RUN-KILLED-LINKED, C-134).
 * - RUN-KILLED-DIRTY-OUT: opens (ids[0]), before p's in_exiting, a window for at most one out_exiting
 * of p asked on the dirty scheduler, which the caller closes (races_close) before p's out_exited:
 * p, killed by an exit signal while it waits in the gate's dirty NIF, is scheduled out exiting
 * there when the NIF returns before its exit is done, even while a normal scheduler runs the exit
 * (erl_process.c erts_continue_exit_process: "A process executing dirty while terminated";
 * F_DELAYED_DEL_PROC); its enabled lines only (tracepoint_fire_unreported: the trace callback's
 * report is lost) (RUN-KILLED-DIRTY-OUT, C-200, C-800).
 * - RUN-KILLED-DIRTY-MIGRATE: opens two windows (ids[0], ids[1]), each for at most one
 * in_exiting and out_exiting of p right after one another, which the caller closes (races_close)
 * while RUN-KILLED-DIRTY-OUT's window is open, so that they come in any order: p, killed by an exit signal
 * while it waits in the gate's dirty NIF, may be picked by a scheduler of the other type, which
 * schedules it in and straight back out (erl_process.c erts_schedule, "Migrate to dirty
 * scheduler" / "Migrate to another type of scheduler"): a normal scheduler that finds its dirty
 * work still flagged (ids[0]: every line), or the dirty one that finds it exiting (ids[1]: enabled
 * lines only, tracepoint_fire_unreported) (RUN-KILLED-DIRTY-MIGRATE, C-300).
 * - RUN-KILLED-EXIT-YIELD: opens (ids[0]) a window for any number of out_exiting
 * and in_exiting pairs of p, which the caller closes (races_close) before p's out_exited: p,
 * killed by an exit signal, may yield in the middle of its exit, after its exit event, at each
 * phase (erl_process.c erts_continue_exit_process, "goto yield") (RUN-KILLED-EXIT-YIELD, C-302,
 * C-701). */
void windows_exit(Model *m, int p, Race r, unsigned ids[2]);

#endif
