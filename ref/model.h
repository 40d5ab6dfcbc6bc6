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
 *   ports.c      ports: open, commands, echo, close, port links and names
 *   running.c    scheduling of processes: blocking receive, exiting
 *   gc.c         garbage collection
 *   seqtrace.c   sequential tracing: tokens, the system seq tracer
 *   sessions.c   trace sessions: create, destroy, handles, module trace's calls, their order
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
    unsigned since;     /* model clock when the tracer was last attached (SESSION-ORDER-PROCESS) */
} TraceState;

/* A seq_trace token (ref/seqtrace.c). */
typedef struct SeqToken {
    long long label;
    bool send, receive, print; /* the token's trace flags */
    FlagSet stamps;            /* its time stamp flags, as trace flags (TS-PRECEDENCE applies) */
    long long lastcnt, serial; /* the {Previous, Current} serial */
    int sender;                /* the process that last sent or printed with it */
} SeqToken;

/* A message in a mailbox, with the seq_trace token it carries (NULL: none). */
typedef struct Message { Term *msg; const SeqToken *token; } Message;

/* One process (or port, see is_port) of the scenario. */
typedef struct Proc {
    const char *name;
    bool alive;
    TraceState trace[MAX_SESSIONS]; /* indexed by session */
    Message *mbox;      /* message queue, oldest at mhead */
    size_t mhead, mlen, mcap;
    int links[MAX_PROCS];
    int nlinks;
    const char *regname; /* registered name or NULL */
    bool is_port;       /* a port (ref/ports.c): printed <port:name> */
    int owner;          /* port: the connected process */
    bool blocked;       /* process: waiting in a receive on an empty mailbox (ref/running.c) */
    const char *last_traced; /* the tag of p's last trace line, or NULL (ref/gc.c) */
    const SeqToken *token;           /* seq_trace token or NULL (ref/seqtrace.c) */
    long long seq_clock, seq_lastcnt; /* the process's seq_trace counters */
} Proc;

/* The trace pattern of one fixture function (erlang:trace_pattern/3), or the one newly loaded
 * modules get (on_load). */
typedef struct {
    bool set, local;     /* call traced: globally, or locally (any call) when local */
    const Term *ms;      /* its match spec, or true */
    bool meta;           /* meta traced by the scenario's tracer module, state <meta> */
    const Term *meta_ms; /* the meta match spec, or true */
    unsigned since;      /* model clock when the breakpoint was set (SESSION-ORDER-CALL) */
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

/* Where a session is in its life (SESSION-CREATE, SESSION-DESTROY, SESSION-GC). */
typedef enum { LIFE_UNBORN, LIFE_ALIVE, LIFE_DESTROYED } SessionLife;

/* A trace session: a tracer with its own flags per process and its own patterns.
 * Session 0 is the legacy session that erlang:trace/3 and erlang:trace_pattern/3 use;
 * session i > 0 is the scenario's session declaration i - 1. */
typedef struct Session {
    const TracerDecl *tracer;
    const char *state;  /* name of the tracer state process, printed <state>; also the session's name */
    Pattern pats[TARGET_FNS]; /* indexed by FixtureFn */
    Pattern on_load;    /* the pattern of functions of modules loaded later */
    MessagePattern send_pat, receive_pat; /* zeroed: on, no match spec (MSGPAT-DEFAULT) */
    TraceState new_ports; /* what ports opened later get (erlang:trace(new_ports, ...)) */
    SessionLife life;
    bool strong;        /* a strong handle exists (created and not dropped) */
    unsigned since;     /* model clock at creation (SESSION-INFO-SESSIONS) */
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
    bool seq_tracer;    /* the system seq tracer is the scenario's tracer (ref/seqtrace.c) */
    const Step *step;   /* the step being run: where an error found deeper down points */
    unsigned clock;     /* counts attach, pattern and create events, for their order */
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
/* Guarantees: the symbolic identity of p: its port term for a port, else its pid term. */
Term *model_id(Model *m, int p);
/* Guarantees: p printed as a tracee: <name> for a process, <port:name> for a port. */
void model_print_id(Buf *out, const Model *m, int p);
/* Guarantees: the category of tag for tracee p (tag_category or tag_category_port). */
bool model_category(const Model *m, int p, const char *tag, Category *out);
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
/* Guarantees: the full tracepoint for every session, in SESSION-ORDER-PROCESS order: if live
 * for the session, its enabled line, then its trace line if answered trace (a process
 * tracer: its message line). */
void tracepoint_fire(Model *m, int proc, const Event *ev);
/* Guarantees: true iff session s goes on to trace the live tracepoint tag: a process tracer
 * always (no callback); a tracer module when enabled_consult answers trace. */
bool tracepoint_accept(Model *m, int s, int proc, const char *tag, const char *ev_rules);
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

/* sessions.c */
/* Guarantees: the effect and ctl lines of a trace session step (ST_SESSION). */
bool sessions_step(Model *m, const Step *st);
/* Guarantees: the sessions whose tracer is attached to proc, most recently attached first
 * (SESSION-ORDER-PROCESS); returns how many. */
int sessions_by_attach(const Model *m, int proc, int out[MAX_SESSIONS]);
/* Guarantees: the sessions with a breakpoint on fixture function fn that a call meets: for a
 * global call the global patterns (export entry), then for any call the function's own
 * breakpoint (local and meta patterns), most recently set first within each
 * (SESSION-ORDER-CALL); returns how many. */
int sessions_by_pattern(const Model *m, int fn, bool global, int out[MAX_SESSIONS]);
/* Guarantees: ev_rules plus the session rule of a line of session s (SESSION-LEGACY or
 * SESSION-ISOLATION) when the scenario declares sessions, plus order_rule when nsessions
 * sessions see the tracepoint. */
const char *sessions_rules(Model *m, int s, int nsessions, const char *ev_rules, const char *order_rule);
/* Guarantees: the msg line of a process tracer receiving the trace message of the event
 * (SESSION-PROCESS-TRACER). */
void sessions_trace_message(Model *m, int s, int proc, const Event *ev, const char *extra_rules);
/* Guarantees: the flags set set (on) or cleared in trace state ts, its time stamp flags
 * remembered (TS-REMEMBERED); its tracer attached unless the probe answered remove
 * (STATUS-REMOVE: then detached, without flags), with a new place in the order and origin
 * (the rules that attached it) if it was not attached before, and detached when no flag is
 * left (FLAGS-OFF-EMPTY, SESSION-ORDER-PROCESS). */
void sessions_set_flags(Model *m, TraceState *ts, FlagSet set, bool on, Answer probe, const char *origin);
/* Guarantees: pat, changed from before, gets a new place in the order if it is now set where
 * it was not (new, or moved between global and local) or newly meta (SESSION-ORDER-CALL). */
void sessions_note_pattern(Model *m, Pattern *pat, const Pattern *before);

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
/* Guarantees: the effect of the pattern of step st on session s's patterns, the call's result
 * ("-> N" or "raises error:badarg") and its rules. */
void patterns_apply(Model *m, int s, const Step *st, Buf *result, Buf *rules);
/* Guarantees: module mod is loaded; its functions get each session's on_load pattern. */
void patterns_load(Model *m, FixtureModule mod);
/* Guarantees: the text "erlang:trace_pattern(Target,MS,[Opt,...])" of a pattern step. */
void patterns_call_text(Buf *call, const Step *st);

/* msgpatterns.c */
/* Guarantees: the effect and ctl line of `pattern send|'receive' MS OPT...`. */
bool msgpat_step(Model *m, const Step *st);
/* Guarantees: the effect of the send (send) or receive pattern MS of step st on session s,
 * its result ("-> 1" or "raises error:badarg") and its rules appended to rules. */
const char *msgpat_set(Model *m, int s, bool send, const Step *st, Buf *rules);
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
/* Guarantees: msg from sender (carrying token, or NULL) reaches p: its 'receive' event through
 * the session's pattern (rules name why), then p's mailbox; a blocked p wakes and takes it.
 * False with err set if the pattern cannot be modelled. */
bool messages_deliver(Model *m, int p, Term *msg, const Term *sender, const SeqToken *token,
                      const char *rules);
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
/* Guarantees: the lines of p (process) terminating with reason, and of what it is linked to. */
void procs_terminate(Model *m, int p, const Term *reason, bool by_link);
/* Guarantees: p and q are linked (linked true) or not, both ways, without events. */
void procs_set_link(Model *m, int p, int q, bool linked);

/* ports.c */
/* Guarantees: the lines of `P open_port X`: X becomes a new port owned by P. */
bool ports_open(Model *m, int p, const Step *st);
/* Guarantees: the lines of `P port_command X T` (via_send false) or `P port_send X T`. */
bool ports_command(Model *m, int p, const Step *st, bool via_send);
/* Guarantees: the lines of `P port_close X`. */
bool ports_close(Model *m, int p, const Step *st);
/* Guarantees: the lines of a port x closing with reason (its links and name go). */
void ports_terminate(Model *m, int x, const Term *reason, const char *rules);
/* Guarantees: the lines of `P link X` (link true) or `P unlink X` for a port X, already
 * (un)linked. */
bool ports_link(Model *m, int p, int x, bool link);
/* Guarantees: the lines of port x getting the exit signal of linked process p (already unlinked). */
void ports_exit_signal(Model *m, int x, int p, const Term *reason);

/* running.c */
/* Guarantees: p blocks in a receive: its scheduled-out line (RUN-BLOCK). */
void running_block(Model *m, int p);
/* Guarantees: a message reached blocked p: its scheduled-in line; p is no longer blocked. */
void running_wake(Model *m, int p);
/* Guarantees: the scheduling line of p, killed by a signal while not blocked, scheduled in
 * to exit (RUN-KILLED). */
void running_killed(Model *m, int p);
/* Guarantees: the scheduling line of p leaving the system after its exit (RUN-EXITED). */
void running_exited(Model *m, int p);
/* Guarantees: true iff some session traces the scheduling (running, running_procs) of p. */
bool running_traced(const Model *m, int p);

/* gc.c */
/* Guarantees: the lines of `P gc [minor|major]`. */
bool gc_step(Model *m, int p, const Step *st);

/* seqtrace.c */
/* Guarantees: the effect and ctl line of `seq_trace tracer`. */
bool seqtrace_tracer(Model *m, const Step *st);
/* Guarantees: the effect of `P seq_token K V` / `P seq_reset`, and the lines of `P seq_print T`. */
bool seqtrace_step(Model *m, int p, const Step *st);
/* Guarantees: the seq_trace lines of p sending msg to q; the token the message carries. */
const SeqToken *seqtrace_send(Model *m, int p, int q, const Term *msg);
/* Guarantees: p takes over the token of a received message (NULL clears it); its lines. */
void seqtrace_receive(Model *m, int p, const Message *msg);
/* Guarantees: false iff p holds a token and the step kind passes it on in a way the model
 * leaves out (spawn, link, unlink, exit, the port steps). */
bool seqtrace_allows(const Model *m, int p, StepKind kind);
/* Guarantees: false iff a live process holds a token and is traced: its trace callbacks would
 * pass the token on with the tracer's own messages (C-65), which the model leaves out. */
bool seqtrace_holders_untraced(const Model *m);

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
/* Guarantees: the tracer removed from the trace state of a process or port: no flags, not
 * attached. */
void status_detach(TraceState *ts);
/* Guarantees: the probe and ctl line of an `info` step (erlang:trace_info/2). */
bool status_info(Model *m, const Step *st);
/* Guarantees: the effect of `tracer exit R`: the legacy session's state process is dead. */
bool status_tracer_exit(Model *m, const Step *st);

#endif
