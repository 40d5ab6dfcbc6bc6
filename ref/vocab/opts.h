/* opts.h - the Opts map passed to trace callbacks (CONFORMANCE.md section 2, "The Opts map"). */
#ifndef TCS_OPTS_H
#define TCS_OPTS_H
#include "arena.h"
#include "buf.h"
#include "flags.h"
#include "term.h"

/* Guarantees: the Opts map of a trace callback with only the keys that apply (OPTS-ONLY-SET);
 * a scheduler_id of 0 when dirty (the event happened on a dirty scheduler, OPTS-SCHEDULER-ID-DIRTY),
 * else the placeholder of a normal scheduler's id; the rule IDs behind each key are appended to rules. */
Term *opts_build(Arena *a, FlagSet flags, FlagSet ts_cleared, const Term *extra,
                 const Term *ms_result, bool dirty, Buf *rules);

#endif
