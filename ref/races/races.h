/* races.h - the runtime's races: what the runtime may do that no step of a case fixes, in one
 * table, and the only way the model opens an allowance window or an either-or for one
 * (PROTOCOLS.md section 6, "Allowance windows" and "Either-or"; CONFORMANCE.md section 2,
 * "Runtime additions"). A new race is one name here, one row of the table in races.c, and its
 * template where it is built. */
#ifndef TCS_RACES_H
#define TCS_RACES_H
#include <stdbool.h>

#include "allow.h"
#include "model.h"

/* What a window's template fires: its FIRST then its SECOND tag (NULL: none); ASKED: the ones at
 * which a tracer's remove answer makes the model refuse the step (RACE_ASK_*), since what the
 * runtime's addition would then detach no model can say (C-47 covers the scenario's own
 * tracepoints only). */
enum { RACE_ASK_NONE = 0, RACE_ASK_FIRST = 1, RACE_ASK_SECOND = 2, RACE_ASK_BOTH = 3 };

/* The runtime's races, one row each of the table in races.c. */
typedef enum Race {
    RACE_GC_MINOR,
    RACE_GC_MAJOR,
    RACE_BLOCKED_SIGNALS,
    RACE_BLOCKED_INHERIT,
    RACE_WAIT_OPEN_PORT,
    RACE_WAIT_CODE_LOAD,
    RACE_PREEMPT_CODE_LOAD,
    RACE_WAIT_PORT_SIGNALS,
    RACE_WAIT_PORT_OP_REPLY,
    RACE_WAKE_LINK_DOWN,
    RACE_GC_DELAYED,
    RACE_KILLED_LINKED,
    RACE_KILLED_DIRTY_OUT,
    RACE_KILLED_DIRTY_MIGRATE,
    RACE_KILLED_EXIT_YIELD,
    RACE_LARGE_HEAP,
    RACE_LONG_SCHEDULE,
    RACE_RELOAD_BUSY,
    RACE_RELOAD_TRACE_INFO,
    RACE_PORT_OP,
    RACE_BUSY_LOOP,
    RACE_SUSPEND_DIRTY,
    RACE_TIMED_WAIT_SCHEDULED,
    RACE_WAKE_SESSION_END,
    RACE_COUNT
} Race;

/* One row of the table: the rule, the limit of a window (-1: any number; an either-or: 1, one of
 * its two alternatives), the tags of its template and the ones asked, the template as the
 * documents state it, and the refusal (the "what ... is" model_unsupported completes; NULL:
 * the model can always state the race). */
typedef struct RaceRow {
    const char *rule;
    int limit;
    const char *first, *second;
    int asked;
    const char *tpl, *refusal;
} RaceRow;

/* Guarantees: race r's row of the table; every race has one, with a rule. */
const RaceRow *races_row(Race r);
/* Guarantees: a window of race r for up to its limit instances of tpl ("A open ..."), after
 * window after (0: none); returns its id. */
unsigned races_open(Model *m, Race r, unsigned after, const char *tpl);
/* Guarantees: the template races_window would open for what fire(m, p, arg) writes, which is not
 * written, in the step's scratch (allow_capture); NULL when that is no line. For a race that
 * opens a window only for a template none of its open ones has (RACE_BUSY_LOOP). */
const char *races_template(Model *m, int p, AllowFire fire, const void *arg);
/* Guarantees: a window of race r for up to its limit instances of what fire(m, p, arg) writes
 * (allow_capture), which is not written; its id, 0 (no window) when that is no line. */
unsigned races_window(Model *m, Race r, int p, AllowFire fire, const void *arg);
/* Guarantees: window id of race r closed ("A close ..."), if not 0. */
void races_close(Model *m, Race r, unsigned id);
/* Guarantees: allow_either of the n parts of first and second for race r. */
void races_either(Model *m, Race r, const Captured *const first[], const Captured *const second[], int n);
/* Guarantees: the ctl line CALL with answer first, and with answer second, an either-or of race r
 * when they differ (each line citing rules). */
void races_either_answer(Model *m, Race r, const char *call, const char *first, const char *second,
                         const char *rules);
/* What one alternative of an either-or runs for process p; false with the error set when the
 * model refuses it. */
typedef bool (*RaceRun)(Model *m, int p, const void *arg);
/* Guarantees: an either-or of race r between the lines run(m, p, arg) writes as p's trace states
 * stand, and those it writes with p's tracer of session s detached (allow_either); p's trace
 * states afterwards those after the first; false (no line) when run refused either. */
bool races_either_detached(Model *m, Race r, int p, int s, RaceRun run, const void *arg);

/* Guarantees: the lines run(m, p, first) writes; on a release that deviates by d, when the lines
 * run(m, p, second) writes differ from them, an either-or of race r of the two (release_deviates
 * marks d then only). Both run from p's trace states and the node's trace control word as they
 * stand, which are afterwards those after the first; false (no line) with the error set when run
 * refused either, or refused when the second leaves the trace control word otherwise than the
 * first (what a match spec's set_tcw did would depend on the race). */
bool races_either_order(Model *m, Race r, Deviation d, int p, RaceRun run, const void *first, const void *second);

#endif
