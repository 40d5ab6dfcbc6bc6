/* patterns.h - erlang:trace_pattern/3 from the harness (CALL-PATTERN-*). */
#ifndef TCS_PATTERNS_H
#define TCS_PATTERNS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl line of a `pattern` step (erlang:trace_pattern/3). */
bool patterns_step(Model *m, const Step *st);
/* Guarantees: the effect of the pattern of step st on session s's patterns, the call's result
 * ("-> N" or "raises error:badarg") and its rules. */
void patterns_apply(Model *m, int s, const Step *st, Buf *result, Buf *rules);
/* Guarantees: the rule by which erts refuses the options of step st while it reads them, before
 * it looks at the match spec (an unknown option, global with local, meta or a counter), or
 * NULL when that reading accepts them. */
const char *patterns_options_refusal(const Step *st);
/* Guarantees: the text "erlang:trace_pattern(Target,MS,[Opt,...])" of a pattern step. */
void patterns_call_text(Buf *call, const Step *st);

#endif
