/* opts.h - the Opts map passed to trace callbacks (CONFORMANCE.md section 2, "The Opts map"). */
#ifndef TCS_OPTS_H
#define TCS_OPTS_H
#include "arena.h"
#include "buf.h"
#include "flags.h"
#include "term.h"

/* Guarantees: the Opts map of a trace callback with only the keys that apply (OPTS-ONLY-SET);
 * the rule IDs behind each key are appended to rules. */
Term *opts_build(Arena *a, FlagSet flags, FlagSet ts_cleared, const Term *extra,
                 const Term *ms_result, Buf *rules);

#endif
