/* patterns.h - erlang:trace_pattern/3 from the harness (CALL-PATTERN-*). */
#ifndef TCS_PATTERNS_H
#define TCS_PATTERNS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl line of a `pattern` step (erlang:trace_pattern/3). */
bool patterns_step(Model *m, const Step *st);
/* Guarantees: the effect and ctl line ("<P> erlang:trace_pattern(...)") of `P pattern ...`, process p
 * calling erlang:trace_pattern/3 (PATTERN-BY-PROCESS); false with the error set when p is traced
 * for running (the call makes it wait for the breakpoints' commit, scheduled out and in where the
 * runtime's staging takes it) or the together block refuses it (together_pattern). */
bool patterns_by_process(Model *m, int p, const Step *st);
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
