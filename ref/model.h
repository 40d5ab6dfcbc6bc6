/* model.h - the simulation state and the steps that change it.
 *
 * One file per concern, mirroring CONFORMANCE.md section 2:
 *   model.c      state, process table, sessions; runs the steps in order
 *   events.c     which concern handles each step
 *   tracepoint.c one tracepoint across the sessions: enabled line, then trace line
 *   enabled.c    the enabled protocol (answers, trace_status, discard, remove)
 *   opts.c       the Opts map of trace callbacks
 *   control.c    harness calls: erlang:trace/3
 *   patterns.c   harness calls: erlang:trace_pattern/3 (function patterns, on_load)
 *   calls.c      function calls: call, return_to, return_from, exception_from, meta
 *   matchspec.c  match specifications: validation and evaluation
 *   fixture.c    the functions of the traced fixture modules
 *   messages.c   send and receive
 *   msgpatterns.c the send and 'receive' trace patterns (erlang:trace_pattern(send, ...))
 *   procs.c      spawn, link, register, exit
 *   procspec.c   which processes erlang:trace/3 names, the flags it sets, what it returns
 *   inherit.c    flags a new or linked process inherits (set_on_spawn & co, new processes)
 *   status.c     erlang:trace_info/2, removing a tracer, a tracer state process that dies
 */
#ifndef TCS_MODEL_H
#define TCS_MODEL_H
#include <stdbool.h>

#include "arena.h"
#include "buf.h"
#include "fixture.h"
#include "flags.h"
#include "matchspec.h"
#include "scenario.h"
#include "stream.h"
#include "term.h"

enum { MAX_PROCS = 256, TARGET_FNS = FIXTURE_FNS, MAX_SESSIONS = 8 };

/* What one session's tracing looks like on one process. */
typedef struct TraceState {
    bool attached;      /* the session's tracer is attached (trace on; cleared by remove) */
    FlagSet flags;      /* current trace flags */
    FlagSet ts_cleared; /* time stamp flags cleared by `trace off` (TS-REMEMBERED) */
    const char *origin; /* the rule IDs by which the tracer got attached (for --explain) */
    const char *cleared_by; /* the rule IDs that cleared flags of it by themselves, or NULL */
} TraceState;

/* One process of the scenario. */
typedef struct Proc {
    const char *name;
    bool alive;
    TraceState trace[MAX_SESSIONS]; /* indexed by session */
    Term **mbox;        /* message queue, oldest at mhead */
    size_t mhead, mlen, mcap;
    int links[MAX_PROCS];
    int nlinks;
    const char *regname; /* registered name or NULL */
} Proc;

/* The trace pattern of one fixture function (erlang:trace_pattern/3), or the one newly loaded
 * modules get (on_load). */
typedef struct {
    bool set, local;     /* call traced: globally, or locally (any call) when local */
    const Term *ms;      /* its match spec, or true */
    bool meta;           /* meta traced by the scenario's tracer module, state <meta> */
    const Term *meta_ms; /* the meta match spec, or true */
} Pattern;

/* The send or the 'receive' trace pattern of a session (erlang:trace_pattern(send, ...)):
 * off (false), or on with a match spec, or on with none (true, [], the default). */
typedef struct {
    bool off;
    const Term *ms;      /* NULL: no match spec */
    bool set;            /* a pattern step has set it (its lines then cite MSGPAT-* rules) */
} MessagePattern;

/* A tracer as a tracepoint asks it: a session's, or the meta tracer of a session's patterns
 * (the same module with the state <meta>). */
typedef struct {
    const TracerDecl *decl;
    const char *state;  /* name of its state, printed <state> */
    bool state_dead;    /* that state process has exited (STATUS-DEAD-STATE) */
} Tracer;

/* A trace session: a tracer with its own flags per process and its own patterns.
 * Session 0 is the legacy session that erlang:trace/3 and erlang:trace_pattern/3 use. */
typedef struct Session {
    const TracerDecl *tracer;
    const char *state;  /* name of the tracer state process, printed <state> */
    Pattern pats[TARGET_FNS]; /* indexed by FixtureFn */
    Pattern on_load;    /* the pattern of functions of modules loaded later */
    MessagePattern send_pat, receive_pat; /* zeroed: on, no match spec (MSGPAT-DEFAULT) */
    FlagSet new_flags;  /* flags processes created from now on get (PROCS-SPEC-NEW) */
    bool state_dead;    /* the tracer state process has exited (STATUS-DEAD-STATE) */
} Session;

enum { LEGACY_SESSION = 0 };

/* The whole simulation. */
typedef struct Model {
    Arena *a;
    const Scenario *sc;
    Stream *out;
    Err *err;
    Proc procs[MAX_PROCS];
    int nprocs;
    Session sessions[MAX_SESSIONS];
    int nsessions;
    bool loaded[FIXTURE_MODULES]; /* which fixture modules the node has loaded */
    bool cpu_timestamp; /* the node-wide cpu_timestamp flag (TS-CPU) */
} Model;

/* An event at a tracepoint of a process. */
typedef struct Event {
    const char *tag;
    const Term *term;
    const Term *extra;     /* NULL when the trace tuple has no fifth element */
    const Term *ms_result; /* NULL unless a match spec gave a non-true result */
    const char *rules;     /* the EV-... rule IDs of this event */
} Event;

/* model.c */
/* Guarantees: runs every step of sc in order, writing the stream to out; false with err set
 * (step position, "not supported by model v1" etc.) if the model cannot run the scenario. */
bool model_run(Arena *a, const Scenario *sc, Stream *out, Err *err);
/* Guarantees: the index of the process called name, or -1. */
int model_proc(const Model *m, const char *name);
/* Guarantees: a new alive, untraced process; its index, or -1 when the table is full. */
int model_add_proc(Model *m, const char *name);
/* Guarantees: the symbolic pid term of process p. */
Term *model_pid(Model *m, int p);
/* Guarantees: false with err at (line,col) and a message ending in "not supported by model v1". */
bool model_unsupported(Model *m, int line, int col, const char *what);

/* events.c */
/* Guarantees: the effect and lines of one step; false with err set if unsupported. */
bool events_step(Model *m, const Step *st);

/* tracepoint.c */
/* Guarantees: the trace*(tag, ...) line of session s (and the msg line of the example
 * tracer) for a tracepoint already accepted; extra_rules name why (ENABLED-TRACE or
 * ENABLED-RETURN-FROM). */
void tracepoint_emit(Model *m, int s, int proc, const Event *ev, const char *extra_rules);
/* Guarantees: the same for a given tracer, state and process flags (the meta tracer). */
void tracepoint_emit_as(Model *m, Tracer tracer, FlagSet flags, FlagSet ts_cleared, int proc,
                        const Event *ev, const char *extra_rules);
/* Guarantees: the full tracepoint for every session in session order: if live for the
 * session, its enabled line, then its trace line if answered trace. */
void tracepoint_fire(Model *m, int proc, const Event *ev);
/* Guarantees: tracepoint_fire of the event {tag, term, extra} without match spec result. */
void tracepoint_event(Model *m, int proc, const char *tag, const Term *term, const Term *extra,
                      const char *rules);

/* enabled.c */
/* Guarantees: session s's tracer, with its state. */
Tracer enabled_session_tracer(const Model *m, int s);
/* Guarantees: what the tracer answers to enabled*(tag, ...) (EV-EXAMPLE-TRACER,
 * STATUS-DEAD-STATE). */
Answer enabled_answer(Tracer t, const char *tag);
/* Guarantees: the informative trace_status probe line of session s when tracing starts on
 * proc; returns its answer. */
Answer enabled_probe(Model *m, int s, int proc);
/* Guarantees: the same probe line for a given tracer and state (the meta tracer), citing
 * remove_rule when the answer is remove. */
Answer enabled_probe_as(Model *m, Tracer tracer, int proc, const char *remove_rule);
/* Guarantees: true iff the tracepoint is live in session s: proc alive, the session's
 * tracer attached, with the category's flag. */
bool enabled_live(const Model *m, int s, int proc, const char *tag);
/* Guarantees: the enabled*(tag) line of session s for a live tracepoint; true iff it
 * answered trace; discard emits nothing more; remove at a send or call tracepoint also
 * detaches the session's tracer (ENABLED-REMOVE-EVENT). */
bool enabled_consult(Model *m, int s, int proc, const char *tag, const char *ev_rules);
/* Guarantees: the enabled*(tag) line of a given tracer and state, citing remove_rule when
 * the answer is remove; its answer (no detaching). */
Answer enabled_ask(Model *m, Tracer tracer, int proc, const char *tag, const char *ev_rules,
                   const char *remove_rule);

/* opts.c */
/* Guarantees: the Opts map of a trace callback with only the keys that apply (OPTS-ONLY-SET);
 * the rule IDs behind each key are appended to rules. */
Term *opts_build(Arena *a, FlagSet flags, FlagSet ts_cleared, const Term *extra,
                 const Term *ms_result, Buf *rules);

/* control.c */
/* Guarantees: the line "N ctl CALL RESULT" with its rules. */
void control_line(Model *m, const char *call, const char *result, const char *rules);
/* Guarantees: the line "N ctl <P> Verb(Arg,...) raises Class:Reason" of a step of process p
 * whose action {Verb, Arg...} raised (the process catches it and goes on; CONFORMANCE.md
 * section 1). */
void control_step_raised(Model *m, int p, const Term *action, const char *class_, const Term *reason,
                         const char *rules);
/* Guarantees: the effect and ctl line of a `trace` step (erlang:trace/3, legacy session). */
bool control_trace(Model *m, const Step *st);
/* patterns.c */
/* Guarantees: the effect and ctl line of a `pattern` step (erlang:trace_pattern/3). */
bool patterns_step(Model *m, const Step *st);
/* Guarantees: module mod is loaded; its functions get each session's on_load pattern. */
void patterns_load(Model *m, FixtureModule mod);
/* Guarantees: the text "erlang:trace_pattern(Target,MS,[Opt,...])" of a pattern step. */
void patterns_call_text(Buf *call, const Step *st);

/* msgpatterns.c */
/* Guarantees: the effect and ctl line of `pattern send|'receive' MS OPT...`. */
bool msgpat_step(Model *m, const Step *st);
/* Guarantees: the tracepoint of a send (tag send or send_to_non_existing_process: peer is the
 * recipient) or a receive (tag receive: peer is the sender, NULL for a timeout) of process
 * proc during step st, through each session's message pattern; false with err set (at st)
 * if the model cannot run the match spec. */
bool msgpat_event(Model *m, const Step *st, int proc, const char *tag, const Term *msg, const Term *peer,
                  const char *rules);

/* calls.c */
/* Guarantees: the lines of process p evaluating the `call` step (a global call), including
 * the ctl line of an exception the call raises; false with err set if unsupported. */
bool calls_step(Model *m, int p, const Step *st);

/* messages.c */
/* Guarantees: the lines and mailbox effect of `P send Q T`. */
bool messages_send(Model *m, int p, const Step *st);
/* Guarantees: the lines and mailbox effect of `P recv [after N]`. */
bool messages_recv(Model *m, int p, const Step *st);

/* procs.c */
/* Guarantees: the lines of `P spawn Q` and `P spawn_link Q`; Q becomes a new process. */
bool procs_spawn(Model *m, int p, const Step *st);
/* Guarantees: the lines of `P link Q` (link true) or `P unlink Q`. */
bool procs_link(Model *m, int p, const Step *st, bool link);
/* Guarantees: the lines of `P register N` (reg true) or `P unregister N`. */
bool procs_register(Model *m, int p, const Step *st, bool reg);
/* Guarantees: the lines of `P exit R`, including what happens to linked processes. */
bool procs_exit(Model *m, int p, const Step *st);

/* procspec.c */
/* Guarantees: NULL if erlang:trace/3 accepts the step's arguments, else the rule IDs of why
 * it raises badarg (FLAGS-BADARG, FLAGS-CPU-TIMESTAMP, CTL-TRACE). */
const char *procspec_refusal(const Model *m, const Step *st);
/* Guarantees: the effect of an accepted `trace` step in session s on every process it names,
 * and the text of what the call returns ("1", "0", or a count placeholder); rule IDs of
 * the decision are appended to rules. */
const char *procspec_apply(Model *m, int s, const Step *st, Buf *rules);
/* Guarantees: tracing of session s started (or extended) on process p with the flags set:
 * the trace_status probe, then attached unless it answered remove; origin names the rules. */
void procspec_attach(Model *m, int s, int p, FlagSet set, const char *origin);
/* Guarantees: false with err set iff some live process has a flag whose events model v1
 * does not produce for this step (scheduling, garbage collection, ports; return_to for a
 * call unless silent). */
bool procspec_check_modelled(Model *m, const Step *st);

/* inherit.c */
/* Guarantees: in every session, the flags the new process child gets at creation: the
 * defaults for new processes, set_on_spawn / set_on_first_spawn of parent, and for a linked
 * spawn set_on_link / set_on_first_link (INHERIT-*, PROCS-SPEC-NEW); clears the `first`
 * flags used. */
void inherit_spawn(Model *m, int parent, int child, bool linked);
/* Guarantees: in every session, set_on_link / set_on_first_link of linker applied to the
 * process it links to (INHERIT-LINK). */
void inherit_link(Model *m, int linker, int other);

/* status.c */
/* Guarantees: session s's tracer removed from process p: no flags, not attached. */
void status_detach(Model *m, int s, int p);
/* Guarantees: the probe and ctl line of an `info` step (erlang:trace_info/2). */
bool status_info(Model *m, const Step *st);
/* Guarantees: the effect of `tracer exit R`: the legacy session's state process is dead. */
bool status_tracer_exit(Model *m, const Step *st);

#endif
