/* order.h - the order in which several sessions see one event (SESSION-ORDER-*). */
#ifndef TCS_ORDER_H
#define TCS_ORDER_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: sessions idx[0..n) sorted by key[session], latest (largest) first or earliest
 * first; sessions with equal keys keep their order. */
void order_sort(int *idx, const unsigned *key, int n, bool latest_first);
/* Guarantees: *out = the sessions whose tracer is attached to proc, most recently attached
 * first (SESSION-ORDER-PROCESS), in an array from the arena; returns how many. */
int order_by_attach(const Model *m, int proc, int **out);
/* Guarantees: *out = every session, in the order ERTS keeps its list of sessions: the legacy
 * session, then the others most recently created first (SESSION-ORDER-NEW), in an array from
 * the arena; returns how many (m->nsessions). */
int order_session_list(const Model *m, int **out);
/* Guarantees: the trace states ts[s] of a new process or port that got flags from the
 * defaults for new processes (ports) of session s (and those of the sessions in placed[s],
 * when placed is not NULL) take their places in the order: walked in order_session_list
 * order, each as the most recent, so the new tracee sees them earliest created first, the
 * legacy session last (SESSION-ORDER-NEW). */
void order_place_defaults(Model *m, TraceState *ts, const bool *placed);
/* Guarantees: the sessions with a breakpoint on fixture function fn that a call meets: for a
 * global call the global patterns (export entry), then for any call the function's own
 * breakpoint (local and meta patterns), most recently set first within each
 * (SESSION-ORDER-CALL), in an array from the arena (*out); returns how many. */
int order_by_pattern(const Model *m, int fn, bool global, int **out);
/* Guarantees: the flags set set (on) or cleared in trace state ts, its time stamp flags
 * remembered (TS-REMEMBERED); its tracer attached unless the probe answered remove
 * (STATUS-REMOVE: then detached, without flags), with a new place in the order and origin
 * (the rules that attached it) if it was not attached before, and detached when no flag is
 * left (FLAGS-OFF-EMPTY, SESSION-ORDER-PROCESS). */
void order_set_flags(Model *m, TraceState *ts, FlagSet set, bool on, Answer probe, const char *origin);
/* Guarantees: true iff the pattern sets anything on its function: a global or local pattern,
 * a meta pattern, or a counter (SESSION-INFO-SESSIONS lists the session then). */
bool order_pattern_in_use(const Pattern *pat);
/* Guarantees: pat, changed from before, gets a new place in the order if it is now set where
 * it was not (new, or moved between global and local) or newly meta (SESSION-ORDER-CALL). */
void order_note_pattern(Model *m, Pattern *pat, const Pattern *before);

#endif
