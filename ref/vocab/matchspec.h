/* matchspec.h - match specifications for call tracing (CONFORMANCE.md section 2,
 * "Match specifications"): validation, as erlang:trace_pattern/3 compiles them, and
 * evaluation against one call. */
#ifndef TCS_MATCHSPEC_H
#define TCS_MATCHSPEC_H
#include <stdbool.h>
#include <stddef.h>

#include "flags.h"
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
    char otp26[40];     /* the first function called that OTP 26 added to the language, as
                         * "name/arity" (OTP 25 refuses the spec: C-12); "" when none */
} MsVerdict;

/* What a trace flag function of a match spec did (MS-TRACE-FLAGS). */
typedef enum {
    MSE_TRUE,        /* done, the function's value is true */
    MSE_FALSE,       /* trace/2,3: done, nothing changed: false */
    MSE_FAIL,        /* the function fails: 'EXIT' in its place (MS-BODY-EXIT) */
    MSE_UNSUPPORTED, /* the model cannot say (the hook has set the reason) */
} MsEffect;

/* What one trace flag function of a match spec asks for (MS-TRACE-FLAGS). */
typedef struct MsTraceChange {
    const Term *target;  /* NULL: the calling process; else the pid or registered name given */
    const Term *tracer;  /* trace/2,3: the last {tracer, ...} item of its lists, or NULL: the
                          * caller's tracer (MS-TRACE-FLAGS-TRACER) */
    FlagSet disable, enable;
    bool changed;        /* the value reports a change (trace/2,3, which also checks the tracer
                          * first: set_match_trace in erl_db_util.c) */
    bool fails;          /* the arguments name no flag, no flag list or no process: the function
                          * fails ('EXIT' in its place, MS-BODY-EXIT) unless the hook knows the
                          * release does otherwise first (C-560) */
} MsTraceChange;

/* The model's side of enable_trace/1,2, disable_trace/1,2 and trace/2,3 on evaluated
 * arguments: changes the trace flags of the target with the calling process's tracer (or the
 * one the change names). On MSE_UNSUPPORTED, *why is what the model cannot do ("... is"). */
typedef struct MsHooks {
    void *ctx;
    MsEffect (*trace_flags)(void *ctx, const MsTraceChange *change, const char **why);
    /* The calling process's seq_trace token (MS-SEQ-TRACE), after setting its component to value
     * when component is not NULL (set_seq_token, MS-SET-SEQ-TOKEN): MSE_TRUE with *token its
     * internal form {Flags, Label, Serial, From, LastCnt}, or NULL when it holds none;
     * MSE_UNSUPPORTED (with *why) for a token whose form the model cannot state. */
    MsEffect (*seq_token)(void *ctx, const char *component, const Term *value, Term **token, const char **why);
} MsHooks;

/* What a match specification can see of the call it runs on. */
typedef struct MsCall {
    const Term *args;   /* the argument list (proper list) */
    const Term *self;   /* the calling process, {self} */
    const Term *caller; /* {M,F,A} the call returns to, {caller}; NULL prints undefined */
    bool seq_token;     /* the calling process holds a seq_trace token ({is_seq_trace}) */
    const MsHooks *hooks; /* the trace flag functions; NULL: the model cannot run them here */
    long long *tcw;     /* the node's trace control word: get_tcw reads it, set_tcw writes it */
    bool faulty_map_usort; /* the release builds a map of MS_FLATMAP_MAX keys or fewer as OTP 25 to 29's
                            * erts_usort_flatmap does, which can keep a key twice (C-445) */
    int caller_line;    /* the line of that call in M's source, whose file is "M.erl" (the fixture
                         * modules pin it with -file); 0: the caller is the harness's own code */
    const Term *test_seq_info; /* NULL for a traced event; for erlang:match_spec_test/3 (MS-TEST-NO-EFFECT)
                                * the list of {Component, Value} that seq_trace_info/1 gives the caller:
                                * set_seq_token gives its component's Value ('EXIT' for no component)
                                * and set_tcw the word as it stands, and neither changes anything */
} MsCall;

/* The most keys a map built in a match spec has for erts to build it as a flatmap
 * (MAP_SMALL_MAP_LIMIT, erl_map.h): a larger one is built otherwise (matchMkHashMap). */
enum { MS_FLATMAP_MAX = 32 };

/* What running a match specification on a call gives. */
typedef struct MsOutcome {
    bool matched;         /* a clause matched: head and guards */
    const Term *message;  /* the value of the last {message,X} that ran, or NULL */
    bool return_trace;    /* {return_trace} ran */
    bool exception_trace; /* {exception_trace} ran */
    int silent;           /* -1: no {silent,Bool} with a boolean ran; else the last Bool */
    bool keys_collided;   /* a map built had keys that turned out equal, and faulty_map_usort built it */
    const char *rules;    /* the MS-* rules behind the outcome, for --explain */
    const char *unsupported; /* non-NULL: what the model cannot compute ("... is", to be
                              * followed by "not supported by model v1") */
} MsOutcome;

/* What a match specification is for: erts compiles the specs of call, send and receive
 * tracing in different dialects, which refuse different functions (erl_db_util.c). */
typedef enum {
    MS_FOR_CALL,
    MS_FOR_SEND,
    MS_FOR_RECEIVE,
    MS_FOR_TEST /* erlang:match_spec_test(Args, MS, trace): the call dialect, whose set_seq_token the model
                 * runs there (it changes nothing), as it runs the trace flag functions of a process
                 * with no tracer (MS-TEST-TRACE-FLAGS, C-560) */
} MsDialect;

/* Guarantees: MS_OK iff ms is true, false, [] or a list of {Head,Guards,Body} clauses that
 * erlang:trace_pattern/3 accepts for a function and the model can evaluate; MS_INVALID (with
 * the MS-* rule and a message) for what OTP rejects with badarg; MS_UNSUPPORTED otherwise. */
MsVerdict ms_validate(const Term *ms);
/* Guarantees: the same for a match spec of the given dialect: in a send or receive spec the
 * functions that dialect refuses are MS_INVALID (MSGPAT-SEND-REFUSED, MSGPAT-RECEIVE-REFUSED). */
MsVerdict ms_validate_for(const Term *ms, MsDialect dialect);
/* Guarantees: the outcome of the first clause whose head and guards match the call (MS-*);
 * ms must have passed ms_validate with MS_OK and must not be false. */
MsOutcome ms_run(Arena *a, const Term *ms, const MsCall *call);
/* Guarantees: true iff the outcome ran {message,false}: the event is not traced (EV-MS-MESSAGE). */
bool ms_message_false(const MsOutcome *o);
/* Guarantees: the match_spec_result of the traced event: the last {message,X} unless X is
 * true, else NULL (OPTS-MATCH-SPEC-RESULT). */
const Term *ms_message_result(const MsOutcome *o);

#endif
