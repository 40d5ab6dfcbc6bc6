/* matchspec.h - the v1 subset of match specifications (cases/README.md "MS"). */
#ifndef TCS_MATCHSPEC_H
#define TCS_MATCHSPEC_H
#include <stdbool.h>
#include <stddef.h>

#include "term.h"

/* What running a match specification on a call gives. */
typedef struct {
    bool matched;      /* some clause head matched the arguments */
    bool has_message;  /* a {message,X} action ran (EV-MS-MESSAGE) */
    bool suppress;     /* {message,false}: no call event */
    const Term *result;/* match_spec_result when not the atom true, else NULL */
    bool return_trace; /* {return_trace} ran */
} MsOutcome;

/* How a match specification stands against model v1. */
typedef enum {
    MS_OK,          /* in the v1 subset */
    MS_INVALID,     /* not a valid match spec: erlang:trace_pattern raises badarg */
    MS_UNSUPPORTED  /* valid Erlang, but outside v1: msg says why */
} MsCheck;

/* Guarantees: MS_OK iff ms is true, false, or a list of {Head,[],Body} clauses of the v1
 * subset; MS_INVALID for a body term that is a call of no match spec function (e.g.
 * {message,{tag,42}}: tuples in bodies are calls); else MS_UNSUPPORTED with msg set. */
MsCheck ms_validate(Arena *a, const Term *ms, char *msg, size_t n);
/* Guarantees: the outcome of the first clause whose head matches args (a proper list);
 * ms must have passed ms_validate with MS_OK and must not be false. */
MsOutcome ms_run(Arena *a, const Term *ms, const Term *args);

#endif
