/* mstest.h - a process's erlang:match_spec_test(Args, MS, trace) (CONFORMANCE.md section 2,
 * "Match specifications", MS-TEST-*): the match spec run on Args as a call would run it, with
 * no effect on the process or the node. */
#ifndef TCS_MSTEST_H
#define TCS_MSTEST_H
#include <stdbool.h>

#include "model.h"
#include "steps.h"

/* Guarantees: the control line "<P> erlang:match_spec_test(Args,MS,trace) -> {ok,Result,Flags,[]}" of
 * process p's step (MS-TEST-RESULT), and nothing changed: no trace flag, silent flag, seq_trace
 * token or trace control word (MS-TEST-NO-EFFECT); false with the reason where model v1 cannot
 * say what the test gives. */
bool mstest_step(Model *m, int p, const Step *st);

#endif
