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

/* Guarantees: true iff ms is true, false, or a list of {Head,[],Body} clauses of the v1
 * subset; otherwise false with a message in msg. */
bool ms_validate(const Term *ms, char *msg, size_t n);
/* Guarantees: the outcome of the first clause whose head matches args (a proper list);
 * ms must have passed ms_validate and must not be false. */
MsOutcome ms_run(const Term *ms, const Term *args);

#endif
