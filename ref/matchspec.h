/* matchspec.h - match specifications for call tracing (CONFORMANCE.md section 2,
 * "Match specifications"): validation, as erlang:trace_pattern/3 compiles them, and
 * evaluation against one call. */
#ifndef TCS_MATCHSPEC_H
#define TCS_MATCHSPEC_H
#include <stdbool.h>
#include <stddef.h>

#include "term.h"

/* How a match specification stands. */
typedef enum {
    MS_OK,          /* valid, and the model can run it */
    MS_INVALID,     /* not a valid match spec: erlang:trace_pattern raises badarg */
    MS_UNSUPPORTED  /* valid Erlang, but outside what model v1 runs */
} MsCheck;

/* Why ms_validate decided what it did. */
typedef struct MsVerdict {
    MsCheck check;
    const char *rule;   /* for MS_INVALID: the MS-* rule that makes it invalid */
    char msg[200];      /* for MS_INVALID and MS_UNSUPPORTED: what is wrong, and where */
} MsVerdict;

/* What a match specification can see of the call it runs on. */
typedef struct MsCall {
    const Term *args;   /* the argument list (proper list) */
    const Term *self;   /* the calling process, {self} */
    const Term *caller; /* {M,F,A} the call returns to, {caller}; NULL prints undefined */
} MsCall;

/* What running a match specification on a call gives. */
typedef struct MsOutcome {
    bool matched;         /* a clause matched: head and guards */
    const Term *message;  /* the value of the last {message,X} that ran, or NULL */
    bool return_trace;    /* {return_trace} ran */
    bool exception_trace; /* {exception_trace} ran */
    int silent;           /* -1: no {silent,Bool} with a boolean ran; else the last Bool */
    const char *rules;    /* the MS-* rules behind the outcome, for --explain */
    const char *unsupported; /* non-NULL: what the model cannot compute ("... is", to be
                              * followed by "not supported by model v1") */
} MsOutcome;

/* Guarantees: MS_OK iff ms is true, false, [] or a list of {Head,Guards,Body} clauses that
 * erlang:trace_pattern/3 accepts for a function and the model can evaluate; MS_INVALID (with
 * the MS-* rule and a message) for what OTP rejects with badarg; MS_UNSUPPORTED otherwise. */
MsVerdict ms_validate(const Term *ms);
/* Guarantees: the outcome of the first clause whose head and guards match the call (MS-*);
 * ms must have passed ms_validate with MS_OK and must not be false. */
MsOutcome ms_run(Arena *a, const Term *ms, const MsCall *call);

#endif
