/* scenario.h - a parsed .tcs file (cases/README.md, scenario language v1). */
#ifndef TCS_SCENARIO_H
#define TCS_SCENARIO_H
#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "flags.h"
#include "steps.h"
#include "term.h"

typedef enum { ANS_TRACE, ANS_DISCARD, ANS_REMOVE } Answer;
/* TRACER_UNDEFINED: a session created with tracer `undefined`, whose processes each name their
 * tracer, {tracer, <tracer>} (SESSION-UNDEFINED-TRACER). */
typedef enum { TRACER_RECORDER, TRACER_ERL_MSG, TRACER_PROCESS, TRACER_UNDEFINED } TracerKind;

/* Which processes or ports a `trace` step names (erlang:trace/3's first argument), or what
 * an `info` step asks about: one process or port, or one of the atoms (PROCS-SPEC-*,
 * PORTS-NEW). */
typedef enum {
    SPEC_PID, SPEC_ALL, SPEC_PROCESSES, SPEC_EXISTING, SPEC_EXISTING_PROCESSES, SPEC_NEW,
    SPEC_NEW_PROCESSES, SPEC_NEW_PORTS,
    SPEC_PORTS, SPEC_EXISTING_PORTS, /* a session's port(all), port(existing): trace:port/4 only */
    SPEC_NO_PROCESS /* a session's trace step naming a quoted atom that is no process (raises) */
} ProcSpec;

/* Step.session of `weak(legacy)`: the legacy session's weak handle {legacy,default}; of an
 * `apply` of a function that takes no session: none. */
enum { SESSION_LEGACY = -1, SESSION_NONE = -2 };

enum { MAX_STEP_FLAGS = 32 };
#define ANY_ARITY (-1LL) /* pattern: arity '_' */

/* One step; which fields are set depends on kind (see cases/README.md "Steps"). The lists of
 * flags and options (MAX_STEP_FLAGS items each) are allocated for the steps that have them
 * only: a long scenario's steps are mostly sends and receives. */
/* How a call step reaches its function (cases/README.md "Call paths"): erlang:apply/3 with values
 * known at run time; a remote call compiled in tcs_direct (the only path on which OTP-19840
 * shows); a call of a fun of the function made at run time (an external fun, as `fun M:F/A`). */
typedef enum { CALL_APPLY, CALL_DIRECT, CALL_FUN } CallPath;

typedef struct Step {
    StepKind kind;
    int line, col;             /* position of the step's first token */
    const char *actor;         /* acting process (all but trace/pattern); trace/info: the tracee
                                  or the spec's atom */
    int actor_col;
    const char *other;         /* send: recipient; spawn, spawn_link: child; link/unlink: the
                                  other; port steps: the port; register: the port named, or NULL;
                                  kill: the process the exit signal goes to; monitor: the
                                  process monitored */
    int other_col;
    bool on;                   /* trace: on/off */
    Term *how;                 /* a session's trace: How written `how TERM`, no boolean (raises) */
    ProcSpec spec;             /* trace, info: a process or port (SPEC_PID) or an atom */
    Flag *flags;               /* trace: flags as written; FL_COUNT for a term that is no flag */
    Term **flag_terms;         /* trace (legacy): each flag as written */
    int nflags;
    bool bad_flag;             /* trace: some flag is no trace flag (erlang:trace/3 raises badarg) */
    const char *item;          /* info: flags or tracer (a session's: its item's atom); relation:
                                  the operator (>=, >, =<, <, =:=) between actor and other, the
                                  names of two readings */
    const char *reading;       /* info of call_time or call_memory: the reading's name, or NULL */
    Term *term;                /* send: message; recv: the message of a selective receive, or NULL;
                                  exit, kill, tracer exit: reason; (un)register: name;
                                  trap_exit: true or false;
                                  pattern: MS; port_command/port_send: the data; gc: minor or
                                  major; seq_token: the value; seq_print: the term */
    int term_col;
    const char *module;        /* pattern/call: module ("_" for the wildcard); NULL: on_load
                                * or an event */
    const char *event;         /* pattern: "send" or "receive" for a message pattern, else NULL */
    const char *fn;            /* pattern/call: function ("_" for the wildcard); apply: the
                                  function of module trace;
                                  seq_token: the token component; send_name: the name */
    long long arity;           /* pattern: arity, ANY_ARITY for '_' */
    const char **opts;         /* pattern: the options as written (global, local, meta...);
                                  NULL for a {meta, ...} tuple, which is in opt_terms */
    Term **opt_terms;          /* pattern (legacy): each option as written */
    int nopts;
    const Term *tracer_opt;    /* legacy trace: the first {tracer, ...} flag; pattern: the first
                                  {meta, ...} option; NULL: the harness adds its tracer */
    const char *ms_invalid;    /* pattern: the MS-* rule when MS is no valid match spec
                                * (trace_pattern raises badarg), else NULL */
    const char *ms_otp26;      /* pattern: the first function MS calls that OTP 26 added to the
                                * language ("name/arity": OTP 25 refuses it, C-12), else NULL */
    CallPath path;             /* call: how the harness reaches the function (cases/README.md "Call paths") */
    Term *args;                /* call: argument list; seq_print: the label of print/2, or NULL;
                                  apply: the arguments after the session, as a list; kill_all:
                                  the names killed, in order, tracer first */
    bool has_timeout;          /* recv after N */
    bool on_peer;              /* spawn, spawn_link: the new process is on the peer node (DIST-SPAWN) */
    bool together;             /* a process's step between `together` and `end` (BLOCK-TOGETHER) */
    bool driver;               /* open_port: the suite's linked-in driver tcs_drv, not cat;
                                  port_control: item is busy, not_busy or timer (timeout: N ms) */
    long long max_heap_size;   /* spawn with an entry point: its max_heap_size in words, 0: none */
    Term *spawn_opts;          /* spawn of a scenario process: the options of spawn_opt/4, or NULL */
    long long timeout;
    long long rounds;          /* kill_all: the bursts the harness does; pattern ... restart: the calls of
                                  trace_pattern/3 it makes back to back (PATTERN-RESTART-ROUNDS); trace SPEC
                                  on call: the calls of erlang:trace/3, an off between each two
                                  (PROCS-SPEC-ROUNDS); 1 without `rounds` */
    long long rounds_ms;       /* trace SPEC on call rounds N within MS: the harness makes no new round
                                  once MS milliseconds of them have passed; 0 without `within` */
    SessionOp sop;             /* session steps: which call */
    int session;               /* session steps: index in Scenario.sessions, or SESSION_LEGACY */
    bool weak;                 /* session steps: the call uses the weak handle */
    Term *session_term;        /* info, destroy: a term written as the session, term(T), which no
                                * handle is (SESSION-NOT-A-HANDLE); session is then SESSION_LEGACY,
                                * weak, whose calls raise alike */
    Term *sargs;               /* session steps: create: Opts; trace and pattern: the options as
                                * terms (a session refuses tuples such as {tracer,T}); info: Item;
                                * system: Value (term: the event) */
} Step;

typedef struct { const char *tag; Answer answer; } AnswerDecl;

/* A tracer module and how its enabled callbacks answer (cases/README.md "Tracer"). */
typedef struct TracerDecl {
    TracerKind kind;
    unsigned callbacks;        /* bit i = callback_index i provided */
    AnswerDecl *answers; size_t nanswers; /* non-default answers, in file order */
    Answer default_answer;     /* `answer default`, else trace */
    Term *state;               /* `tracer recorder state T`: the tracer state, else NULL (the
                                  harness's state process <tracer>) */
    bool match_binaries;       /* `tracer process match_binaries`: <tracer> matches the first byte of
                                  each binary argument of each call message before it hands the
                                  message on (CALL-MATCH-CONTEXT-READ, C-540) */
} TracerDecl;

/* A trace session the case may create: its name (an atom, also the name of its tracer
 * state process) and its tracer (cases/README.md "Trace sessions"). */
typedef struct SessionDecl {
    const char *name;
    TracerDecl tracer;
} SessionDecl;

/* A whole case file. */
typedef struct Scenario {
    const char *file;          /* path as given, for error messages */
    const char *id;
    int id_line, id_col;
    const char **rules; size_t nrules;
    const char *desc;          /* decoded UTF-8 text */
    long long otp;
    const char **features; size_t nfeatures;
    long long tries;           /* runs of a race the case shows where its release may crash (0: not given, one) */
    TracerDecl tracer;         /* the tracer of erlang:trace/3 (the legacy session) */
    SessionDecl *sessions; size_t nsessions; /* in declaration order */
    const char **procs; size_t nprocs;
    Step *steps; size_t nsteps;
} Scenario;

/* Guarantees: the name of a tracer kind as the scenario writes it (recorder, ...). */
const char *tracer_kind_name(TracerKind k);
/* Guarantees: the atom name of an answer. */
const char *answer_name(Answer a);
/* Guarantees: true iff spec names ports only (new_ports, a session's port(...)): trace:port/4. */
bool spec_is_ports(ProcSpec spec);
/* Guarantees: parses the text of a case file (checked first to be UTF-8); on failure returns
 * false with err set to the position and message of the first problem (the file name is not
 * part of err). */
bool scenario_parse(Arena *a, const char *file, const char *text, Scenario *out, Err *err);
/* Guarantees: reads and parses path and checks the case id equals the file stem;
 * on failure returns false with err set (line 0 means the file could not be read). */
bool scenario_load(Arena *a, const char *path, Scenario *out, Err *err);

/* A case file read one step at a time (scenario_open, scenario_next, scenario_close). */
typedef struct ScenarioReader ScenarioReader;
typedef enum { READ_STEP, READ_END, READ_ERROR } ReadResult;

/* Guarantees: path opened and read up to its first step: *out its header (no steps: steps NULL),
 * in a's memory, and *reader the reader of its steps (to scenario_close); false with err set
 * (*reader NULL) at a problem scenario_load reports, found in the header. */
bool scenario_open(Arena *a, const char *path, Scenario *out, ScenarioReader **reader, Err *err);
/* Guarantees: READ_STEP with *st the next step, which lives until the next call (unless
 * scenario_keep_step) and needs no memory of the steps before it; READ_END after the last step
 * (the id checked as scenario_load does); READ_ERROR with the err of scenario_open set as
 * scenario_load sets it: the rest of the file is read to find a problem it reports first. */
ReadResult scenario_next(ScenarioReader *r, const Step **st);
/* Guarantees: what the step scenario_next gave last points to lives until scenario_close (no
 * more memory than it takes); the Step itself is still overwritten by the next call. */
void scenario_keep_step(ScenarioReader *r);
/* Guarantees: the reader's file and memory released (r may be NULL). */
void scenario_close(ScenarioReader *r);

#endif
