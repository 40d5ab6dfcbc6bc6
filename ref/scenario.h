/* scenario.h - a parsed .tcs file (cases/README.md, scenario language v1). */
#ifndef TCS_SCENARIO_H
#define TCS_SCENARIO_H
#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "flags.h"
#include "term.h"

typedef enum { ANS_TRACE, ANS_DISCARD, ANS_REMOVE } Answer;
typedef enum { TRACER_RECORDER, TRACER_ERL_MSG } TracerKind;

typedef enum {
    ST_TRACE, ST_PATTERN, ST_SEND, ST_RECV, ST_CALL, ST_SPAWN, ST_LINK, ST_UNLINK,
    ST_REGISTER, ST_UNREGISTER, ST_EXIT, ST_SPAWN_LINK, ST_INFO, ST_TRACER_EXIT
} StepKind;

/* Which processes a `trace` step names (erlang:trace/3's first argument), or what an `info`
 * step asks about: one process, or one of the atoms (PROCS-SPEC-*). */
typedef enum {
    SPEC_PID, SPEC_ALL, SPEC_PROCESSES, SPEC_EXISTING, SPEC_EXISTING_PROCESSES, SPEC_NEW,
    SPEC_NEW_PROCESSES
} ProcSpec;

enum { MAX_STEP_FLAGS = 32 };
#define ANY_ARITY (-1LL) /* pattern: arity '_' */

/* One step; which fields are set depends on kind (see cases/README.md "Steps"). */
typedef struct Step {
    StepKind kind;
    int line, col;             /* position of the step's first token */
    const char *actor;         /* acting process (all but trace/pattern); trace/info: the tracee
                                  or the spec's atom */
    int actor_col;
    const char *other;         /* send: recipient; spawn, spawn_link: child; link/unlink: the other */
    int other_col;
    bool on;                   /* trace: on/off */
    ProcSpec spec;             /* trace, info: a process (SPEC_PID) or an atom */
    Flag flags[MAX_STEP_FLAGS];/* trace: flags as written; FL_COUNT for a term that is no flag */
    Term *flag_terms[MAX_STEP_FLAGS]; /* trace: each flag as written */
    int nflags;
    bool bad_flag;             /* trace: some flag is no trace flag (erlang:trace/3 raises badarg) */
    const char *item;          /* info: flags or tracer */
    Term *term;                /* send: message; exit, tracer exit: reason; (un)register: name;
                                  pattern: MS */
    int term_col;
    const char *module;        /* pattern/call: module ("_" for the wildcard); NULL: on_load
                                * or an event */
    const char *event;         /* pattern: "send" or "receive" for a message pattern, else NULL */
    const char *fn;            /* pattern/call: function ("_" for the wildcard) */
    long long arity;           /* pattern: arity, ANY_ARITY for '_' */
    const char *opts[MAX_STEP_FLAGS]; /* pattern: the options as written (global, local, meta...) */
    int nopts;
    const char *ms_invalid;    /* pattern: the MS-* rule when MS is no valid match spec
                                * (trace_pattern raises badarg), else NULL */
    Term *args;                /* call: argument list */
    bool has_timeout;          /* recv after N */
    long long timeout;
} Step;

typedef struct { const char *tag; Answer answer; } AnswerDecl;

/* A tracer module and how its enabled callbacks answer (cases/README.md "Tracer"). */
typedef struct TracerDecl {
    TracerKind kind;
    unsigned callbacks;        /* bit i = callback_index i provided */
    AnswerDecl *answers; size_t nanswers; /* non-default answers, in file order */
    Answer default_answer;     /* `answer default`, else trace */
} TracerDecl;

/* A whole case file. */
typedef struct Scenario {
    const char *file;          /* path as given, for error messages */
    const char *id;
    int id_line, id_col;
    const char **rules; size_t nrules;
    const char *desc;          /* decoded UTF-8 text */
    long long otp;
    const char **features; size_t nfeatures;
    TracerDecl tracer;         /* the tracer of erlang:trace/3 (the legacy session) */
    const char **procs; size_t nprocs;
    Step *steps; size_t nsteps;
} Scenario;

/* Guarantees: the atom name of an answer. */
const char *answer_name(Answer a);
/* Guarantees: parses the text of a case file; on failure returns false with err set to the
 * position and message of the first problem (the file name is not part of err). */
bool scenario_parse(Arena *a, const char *file, const char *text, Scenario *out, Err *err);
/* Guarantees: reads and parses path and checks the case id equals the file stem;
 * on failure returns false with err set (line 0 means the file could not be read). */
bool scenario_load(Arena *a, const char *path, Scenario *out, Err *err);

#endif
