/* races.h - the runtime's races: what the runtime may do that no step of a case fixes, in one
 * table, and the only way the model opens an allowance window or an either-or for one
 * (PROTOCOLS.md section 6, "Allowance windows" and "Either-or"; CONFORMANCE.md section 2,
 * "Runtime additions"). A new race is one row here, and its template where it is built. */
#ifndef TCS_RACES_H
#define TCS_RACES_H
#include <stdbool.h>

#include "allow.h"
#include "model.h"

/* The text of a refusal, as model_unsupported completes it ("... is not supported by model v1"). */
#define RACE_REFUSE_ADDITION                                                                                           \
    "what the runtime may add (collections, scheduling: GC-RUNTIME, RUN-BLOCKED-SIGNALS, RUN-WAIT-*) for a process "   \
    "whose tracer answers remove to it is"

/* The tags a window's template fires (FIRST, then SECOND; NULL: none), the ones at which a
 * tracer's remove answer makes the model refuse the step (ASKED: RACE_ASK_*), since what the
 * runtime's addition would then detach no model can say (C-47 covers the scenario's own
 * tracepoints only). */
enum { RACE_ASK_NONE = 0, RACE_ASK_FIRST = 1, RACE_ASK_SECOND = 2, RACE_ASK_BOTH = 3 };

/* X(ID, RULE, LIMIT (-1: any number), FIRST, SECOND, ASKED, TEMPLATE, REFUSAL (NULL: none)) */
#define RACES(X)                                                                                                       \
    X(RACE_GC_MINOR, "GC-RUNTIME", -1, "gc_minor_start", "gc_minor_end", RACE_ASK_BOTH,                                \
      "gc_minor_start ; gc_minor_end, any time while traced for garbage_collection", RACE_REFUSE_ADDITION)             \
    X(RACE_GC_MAJOR, "GC-RUNTIME", -1, "gc_major_start", "gc_major_end", RACE_ASK_BOTH,                                \
      "gc_major_start ; gc_major_end, any time while traced for garbage_collection", RACE_REFUSE_ADDITION)             \
    X(RACE_BLOCKED_SIGNALS, "RUN-BLOCKED-SIGNALS", -1, "in", "out", RACE_ASK_BOTH,                                     \
      "in ... out at the receive or the yielded port BIF, while blocked or suspended", RACE_REFUSE_ADDITION)          \
    X(RACE_BLOCKED_INHERIT, "RUN-BLOCKED-INHERIT", 1, "in", "out", RACE_ASK_BOTH,                                      \
      "in (old flags) ... out (new flags) at the receive, from a link until the wake-up", RACE_REFUSE_ADDITION)      \
    X(RACE_WAIT_OPEN_PORT, "RUN-WAIT-OPEN-PORT", 1, "out", "in", RACE_ASK_BOTH,                                        \
      "out ... in at {erlang,open_port,2}", RACE_REFUSE_ADDITION)                                                    \
    X(RACE_WAIT_CODE_LOAD, "RUN-WAIT-CODE-LOAD", -1, "out", "in", RACE_ASK_BOTH,                                       \
      "out ... in at {code_server,call,1}", RACE_REFUSE_ADDITION)                                                    \
    X(RACE_PREEMPT_CODE_LOAD, "RUN-PREEMPT-CODE-LOAD", 1, "out", "in", RACE_ASK_BOTH,                                  \
      "out ... in at one function of the load path", RACE_REFUSE_ADDITION)                                           \
    X(RACE_WAIT_PORT_SIGNALS, "RUN-WAIT-PORT-SIGNALS", 1, "out", "in", RACE_ASK_BOTH,                                  \
      "out ... in at {erlang,bif_handle_signals_return,2}", RACE_REFUSE_ADDITION)                                    \
    X(RACE_WAIT_PORT_OP_REPLY, "RUN-WAIT-PORT-OP-REPLY", 1, "out", "in", RACE_ASK_BOTH,                                \
      "out ... in at the port BIF's erlang wrapper", RACE_REFUSE_ADDITION)                                           \
    X(RACE_WAKE_LINK_DOWN, "RUN-WAKE-LINK-DOWN", 1, "out", "in", RACE_ASK_BOTH,                                        \
      "out ... in at {tcs_puppet,block,0}, before the 'DOWN'", RACE_REFUSE_ADDITION)                                 \
    X(RACE_GC_DELAYED, "GC-RUNTIME-DELAYED", 1, "out", "in", RACE_ASK_BOTH,                                            \
      "out ... in at {erlang,prepare_loading_1,2}, and a whole minor or major pair right after the in",              \
      RACE_REFUSE_ADDITION)                                                                                            \
    X(RACE_KILLED_LINKED, "RUN-KILLED-LINKED", 1, "in_exiting", NULL, RACE_ASK_FIRST, "in_exiting 0",                  \
      "the in_exiting the runtime may leave out (RUN-KILLED-LINKED) of a process whose tracer answers remove to it "   \
      "is")                                                                                                            \
    X(RACE_KILLED_DIRTY_OUT, "RUN-KILLED-DIRTY-OUT", 1, "out_exiting", NULL, RACE_ASK_FIRST,                           \
      "out_exiting 0, its enabled lines only",                                                                        \
      "the out_exiting the runtime may ask about on a dirty scheduler (RUN-KILLED-DIRTY-OUT) of a process whose "      \
      "tracer answers remove to it is")                                                                                \
    X(RACE_KILLED_DIRTY_MIGRATE, "RUN-KILLED-DIRTY-MIGRATE", 1, "in_exiting", "out_exiting", RACE_ASK_FIRST,           \
      "in_exiting 0 ; out_exiting 0, with every line, and with its enabled lines only",                               \
      "the in_exiting and out_exiting the runtime may schedule before the exit (RUN-KILLED-DIRTY-MIGRATE) of a "       \
      "process whose tracer answers remove to in_exiting is")                                                         \
    X(RACE_KILLED_EXIT_YIELD, "RUN-KILLED-EXIT-YIELD", 1, "out_exiting", "in_exiting", RACE_ASK_BOTH,                  \
      "out_exiting 0 ; in_exiting 0",                                                                                 \
      "the out_exiting and in_exiting of an exit that yields (RUN-KILLED-EXIT-YIELD) of a process whose tracer "       \
      "answers remove to one of them is")                                                                              \
    X(RACE_LARGE_HEAP, "SYSMON-LARGE-HEAP", -1, NULL, NULL, RACE_ASK_NONE, "{monitor, Pid, large_heap, _Info}", NULL)  \
    X(RACE_RELOAD_BUSY, "TRACER-RELOAD-BUSY", -1, "call", NULL, RACE_ASK_NONE,                                         \
      "the lines of one call of the busy loop", NULL)                                                                  \
    X(RACE_RELOAD_TRACE_INFO, "TRACER-RELOAD-RACE", 1, NULL, NULL, RACE_ASK_NONE,                                      \
      "either-or: erlang:trace_info(A, tracer) with the tracer, or with it detached", NULL)                            \
    X(RACE_PORT_OP, "PORT-OP-TASK-OR-IMMEDIATE", 1, "in", "out", RACE_ASK_NONE,                                        \
      "either-or: in op ... out op (immediate), or in 0 ... out 0 and the reply (port task)", NULL)

#define RACE_ENUM(id, rule, limit, first, second, asked, tpl, refusal) id,
typedef enum Race { RACES(RACE_ENUM) RACE_COUNT } Race;
#undef RACE_ENUM

/* One row of the table. */
typedef struct RaceRow {
    const char *rule;
    int limit;
    const char *first, *second;
    int asked;
    const char *tpl, *refusal;
} RaceRow;

/* Guarantees: race r's row of the table. */
const RaceRow *races_row(Race r);
/* Guarantees: true iff a session that would trace one of race r's asked tags of p answers remove
 * to it (a process tracer, which has no enabled callback, never does). */
bool races_remove_answered(const Model *m, int p, Race r);
/* Guarantees: false with the error set to race r's refusal at the current step: the model
 * refuses it. */
bool races_refuse(Model *m, Race r);
/* Guarantees: a window of race r for up to its limit instances of tpl ("A open ..."), after
 * window after (0: none); returns its id. */
unsigned races_open(Model *m, Race r, unsigned after, const char *tpl);
/* Guarantees: a window of race r for up to its limit instances of what fire(m, p, arg) writes
 * (allow_capture), which is not written; its id, 0 (no window) when that is no line. */
unsigned races_window(Model *m, Race r, int p, AllowFire fire, const void *arg);
/* Guarantees: window id of race r closed ("A close ..."), if not 0. */
void races_close(Model *m, Race r, unsigned id);
/* Guarantees: allow_either of the n parts of first and second for race r. */
void races_either(Model *m, Race r, const Captured *const first[], const Captured *const second[], int n);
/* What one alternative of an either-or runs for process p; false with the error set when the
 * model refuses it. */
typedef bool (*RaceRun)(Model *m, int p, const void *arg);
/* Guarantees: an either-or of race r between the lines run(m, p, arg) writes as p's trace states
 * stand, and those it writes with p's tracer of session s detached (allow_either); p's trace
 * states afterwards those after the first; false (no line) when run refused either. */
bool races_either_detached(Model *m, Race r, int p, int s, RaceRun run, const void *arg);

#endif
