/* model.h - the state of a simulation: the Model, its processes (Proc) and sessions
 * (Session), and the accessors every layer above uses. Nothing here writes a stream line.
 * The layers of the model: ref/LAYERS and ref/README.md. */
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
#include "strmap.h"
#include "term.h"

enum { TARGET_FNS = FIXTURE_FNS };

/* What one session's tracing looks like on one process. */
typedef struct TraceState {
    bool attached;      /* the session's tracer is attached (trace on; cleared by remove) */
    FlagSet flags;      /* current trace flags */
    FlagSet ts_cleared; /* time stamp flags cleared by `trace off` (TS-REMEMBERED) */
    const char *origin; /* the rule IDs by which the tracer got attached (for --explain) */
    const char *cleared_by; /* the rule IDs that cleared flags of it by themselves, or NULL */
    unsigned since;     /* model clock when the tracer was last attached (SESSION-ORDER-PROCESS) */
    const Term *state;  /* the state this process's tracer got from {tracer, recorder, State}, or
                           NULL: the session's (TRACER-OPTION) */
    bool long_queue;    /* the session's long_message_queue monitor said true of this process, and
                           not false since (SYSMON-LONG-MSGQ, ref/events/longmsgq.c) */
} TraceState;

/* A seq_trace token (ref/events/seqtrace.c). */
typedef struct SeqToken {
    long long label;
    bool send, receive, print; /* the token's trace flags */
    FlagSet stamps;            /* its time stamp flags, as trace flags (TS-PRECEDENCE applies) */
    long long lastcnt, serial; /* the {Previous, Current} serial */
    int sender;                /* the process that last sent or printed with it */
} SeqToken;

/* A message in a mailbox, with the seq_trace token it carries (NULL: none). */
/* sync: the sync point of the together block step that sent it (ref/races/together.c), 0: none. */
typedef struct Message { Term *msg; const SeqToken *token; unsigned sync; } Message;

/* The allowance windows the model keeps open for a process while it lives (ref/races/windows.c):
 * runtime-started minor and major collections, scheduling while blocked in a receive, and the one
 * schedule in which a blocked process handles flags passed to it by a signal. */
typedef enum { WIN_GC_MINOR, WIN_GC_MAJOR, WIN_BLOCKED, WIN_SIGNAL_FLAGS, WINDOW_KINDS } WindowKind;
/* The windows one busy loop may hold at once: one per template its call has had (busyloop.c). */
enum { LOOP_WINDOWS = 8 };

/* One open allowance window: its id (0: none open) and its template as the A line spells it. */
typedef struct OpenWindow { unsigned id; const char *tpl; } OpenWindow;

/* The harness's timer aimed at a process (`start_timer P MS`, `cancel_timer P`; ref/harness/timers.c). */
typedef enum {
    TIMER_NONE,
    TIMER_ARMED,  /* armed, its receiver not suspended since */
    TIMER_PAUSED, /* armed, its receiver suspended since: OTP 29 pauses it (C-660) */
    TIMER_WAITED, /* cancelled after a pause: the next step must wait longer than the timer */
    TIMER_LATE,   /* the same on a release where the cancel missed it: it fires in that wait (C-660) */
} TimerState;

/* One process (or port, see is_port) of the scenario. */
typedef struct Proc {
    const char *name;
    Term *pid;          /* its pid term, made at its first model_pid: a send makes no new one */
    bool alive;
    TraceState *trace;  /* indexed by session, Model.nsessions of them (in the arena) */
    Message *mbox;      /* message queue, oldest at mhead */
    size_t mhead, mlen, mcap;
    int *links;         /* the linked processes and ports, in the arena, grown by doubling */
    int nlinks;
    size_t links_cap;
    const char *regname; /* registered name or NULL */
    bool is_port;       /* a port (ref/events/ports.c): printed <port:name> */
    int owner;          /* port: the connected process */
    bool driver;        /* port: runs the suite's driver tcs_drv, not cat (ref/events/drvports.c) */
    bool busy;          /* driver port: set busy by the driver (set_busy_port/2) */
    bool timer_firing;  /* driver port: its timer's 'receive' timeout is being traced, which erts
                         * reports through trace_port, the ports callbacks (PORTS-TIMEOUT-CALLBACKS) */
    int suspended;      /* driver port: 1 + the process suspended sending to it, or 0;
                         * process: 1 + the busy port it is suspended on, or 0 */
    const Term *pending; /* process suspended on a busy port: the data of its port_command */
    bool pending_send;  /* process suspended on a busy port: sending the command with ! (port_send) */
    bool blocked;       /* process: waiting in a receive on an empty mailbox (ref/events/running.c) */
    bool remote;        /* process: on the peer node a `peer` step started (ref/harness/peer.c) */
    int *suspenders;    /* process: who suspended it and has not resumed it, one entry per
                         * suspend: the suspender's index, or -1 for the harness (suspends
                         * nest per suspender; in the arena, grown by doubling: ref/harness/suspend.c) */
    int nsuspenders;    /* process: its suspend count, all suspenders together (0: not suspended) */
    size_t suspenders_cap;
    TimerState timer;   /* process: the harness's timer aimed at it (`start_timer P MS`, ref/harness/timers.c) */
    long long timer_ms; /* process: that timer's milliseconds */
    int timer_line, timer_col; /* process: where the case armed it */
    bool link_woken;    /* process: woken in its receive by an ignored link exit signal, whose
                         * sender's 'DOWN' completes that receive (RUN-WAKE-LINK-DOWN, procs.c) */
    unsigned link_woken_wait; /* its window for one wait between the two (0: none) */
    bool session_end_due; /* process: a trace session ended since its last wait began, and the wake
                           * that end sends may still come (RUN-WAKE-SESSION-END, running.c) */
    unsigned session_end_wait; /* its window for the wait that wake may reach (0: none) */
    bool trap_exit;     /* process: exit signals other than kill become messages (ref/events/signals.c) */
    int *watchers;      /* process: the processes monitoring it, one entry per monitor, in the
                         * arena, grown by doubling (ref/events/signals.c) */
    int nwatchers;
    size_t watchers_cap;
    const char *last_traced; /* the tag of p's last trace line, or NULL (ref/events/gc.c) */
    long long min_heap_size; /* process: spawned with {min_heap_size, N}: N, else 0 (ref/events/largeheap.c) */
    bool fullsweep_after; /* process: spawned with {fullsweep_after, N}, which makes a minor
                           * collection major once N minors have passed (ref/events/gc.c) */
    OpenWindow windows[WINDOW_KINDS]; /* its open allowance windows (ref/races/windows.c) */
    bool windowed;      /* it is in Model.windowed */
    const SeqToken *token;           /* seq_trace token or NULL (ref/events/seqtrace.c) */
    long long seq_clock, seq_lastcnt; /* the process's seq_trace counters */
    bool untraced_silent; /* a match spec's {silent,true} ran in it while the legacy session did not
                           * trace it: nothing on the documents' terms (MS-SILENT-UNTRACED), OTP 25's
                           * stray flag (C-150, C-415, ref/state/release.c) */
    const Step *looping; /* process: the `busy` step whose loop of calls it runs, or NULL
                          * (ref/harness/busyloop.c) */
    unsigned loop_windows[LOOP_WINDOWS]; /* process: the windows of its loop's calls, one per
                                          * template the loop's call had while it ran */
    const char *loop_templates[LOOP_WINDOWS];
    int nloop_windows;
} Proc;

/* The counters a pattern can keep (call_count, call_time, call_memory: CALL-COUNTERS*). */
typedef enum { COUNTER_COUNT, COUNTER_TIME, COUNTER_MEMORY, COUNTERS } CounterKind;
typedef enum { COUNTER_OFF, COUNTER_RUNNING, COUNTER_PAUSED } CounterState;

/* The calls one process made of a function while its call_time or call_memory counter ran. */
typedef struct ProcCalls { int proc; long long calls; struct ProcCalls *next; } ProcCalls;

/* One counter of a function: call_count counts in calls, call_time and call_memory per
 * process in procs (in the arena, newest first). */
typedef struct {
    CounterState state;
    long long calls;
    ProcCalls *procs;
    unsigned epoch;   /* which start from zero this is (Model.counter_epochs when it began) */
    long long grew;   /* call_memory: the calls counted that allocate (CALL-COUNTERS-RELATION) */
    bool uncounted;   /* a busy loop called the function while it ran: its counts are the
                       * scheduler's (CALL-BUSY-LOOP) */
} Counter;

/* A named counter reading (`info ... call_time as NAME`): what a relation can tell of it. */
typedef struct {
    const char *name;
    int session, fn;  /* whose counter: fn -1 for on_load or a function the model does not know */
    CounterKind kind;
    bool list;        /* the reading was a list of entries (the counter ran or was paused) */
    unsigned epoch;
    long long calls, grew; /* the calls its entries count, those of them that allocate */
} Reading;

/* The trace pattern of one fixture function (erlang:trace_pattern/3), or the one newly loaded
 * modules get (on_load). */
typedef struct {
    bool set, local;     /* call traced: globally, or locally (any call) when local */
    const Term *ms;      /* its match spec, or true */
    bool meta;           /* meta traced by the scenario's tracer module, state <meta> */
    const Term *meta_ms; /* the meta match spec, or true */
    const Term *meta_state; /* the meta tracer's state from {meta, recorder, State}, or NULL: <meta> */
    bool meta_orphan;    /* its meta tracer module was unloaded since (TRACER-UNLOADED) */
    bool meta_nil;       /* a call found its meta tracer process dead: {meta,[]} (STATUS-DEAD-PROCESS) */
    unsigned since;      /* model clock when the breakpoint was set (SESSION-ORDER-CALL) */
    Counter counters[COUNTERS]; /* indexed by CounterKind */
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
    const Term *state;  /* its state: a harness process (<tracer>, <meta>, <sa>) or the case's term */
    bool state_dead;    /* that state process has exited (STATUS-DEAD-STATE) */
} Tracer;

/* The system events a session monitors (trace:system/3): a limit each, or off. */
typedef struct {
    bool busy_port, busy_dist_port;
    long long large_heap, long_schedule, long_gc; /* -1: off */
    long long lmq_disable, lmq_enable;             /* long_message_queue; enable 0: off */
    unsigned ls_windows; /* long_schedule on: the first of its windows (ref/events/longsched.c) */
    int ls_nwindows;     /* ... and how many are open, 0: none */
} SystemMonitor;

/* Where a session is in its life (SESSION-CREATE, SESSION-DESTROY, SESSION-GC). */
typedef enum { LIFE_UNBORN, LIFE_ALIVE, LIFE_DESTROYED } SessionLife;

/* A trace session: a tracer with its own flags per process and its own patterns.
 * Session 0 is the legacy session that erlang:trace/3 and erlang:trace_pattern/3 use;
 * session i > 0 is the scenario's session declaration i - 1. */
typedef struct Session {
    const TracerDecl *tracer;
    const char *state;  /* name of the tracer state process, printed <state>; also the session's name */
    const Term *state_term; /* the state its tracer module gets: the case's `state` term, or <state> */
    Pattern pats[TARGET_FNS]; /* indexed by FixtureFn */
    Pattern on_load;    /* the pattern of functions of modules loaded later */
    MessagePattern send_pat, receive_pat; /* zeroed: on, no match spec (MSGPAT-DEFAULT) */
    TraceState new_ports; /* what ports opened later get (erlang:trace(new_ports, ...)) */
    SessionLife life;
    bool strong;        /* a strong handle exists (created and not dropped) */
    bool info_leaked;   /* a trace:info/3 of a process gone took a reference to the session that
                         * it never gives back: dropping the strong handle does not end it (C-375) */
    unsigned since;     /* model clock at creation (SESSION-INFO-SESSIONS) */
    FlagSet new_flags;  /* flags processes created from now on get (PROCS-SPEC-NEW) */
    const Term *new_state; /* the state of the tracer those processes get with them, or NULL: the
                            * session's (PROCS-NEW-TRACER); new_ports keeps its own */
    bool state_dead;    /* the tracer state process has exited (STATUS-DEAD-STATE) */
    SystemMonitor sysmon; /* its system monitoring (trace:system/3, ref/harness/sysmon.c) */
    bool tracer_undefined; /* created with tracer undefined: its processes' tracer is the one their
                            * trace steps name, {tracer,<tracer>} (SESSION-UNDEFINED-TRACER) */
} Session;

enum { LEGACY_SESSION = 0 };

/* The deviations of a release from the documents that a clarification defines well enough to
 * predict them (ref/state/release.c: one row each, in this order). */
typedef enum {
    DEV_LINK_PASSES_NO_FLAGS,
    DEV_GC_TWO_SESSIONS_CRASH,
    DEV_GC_RUNTIME_MAY_CRASH,
    DEV_STRAY_SILENT_CRASH,
    DEV_STRAY_SILENT_INFO,
    DEV_LINK_DEAD_TRAP_NO_LINK,
    DEV_INHERIT_REPLACES_DEFAULTS,
    DEV_META_ITEM_NIL,
    DEV_PORT_SEND_PATTERN_IGNORED,
    DEV_DOWN_TERM_REASON_CLEARS_TOKEN,
    DEV_ON_LOAD_ALL_FIVE,
    DEV_INFO_ITEM_EXPLAINS_WHAT,
    DEV_MS_FUNCTION_BEFORE_OTP26,
    DEV_BIF_MARK_CLEARED,
    DEV_RETURN_TO_CLOSEST_CATCH,
    DEV_COUNTER_RESET_BUSY_MAY_CRASH,
    DEV_NOT_PURGED_CLEARS_PATTERNS,
    DEV_TIMED_WAIT_RECEIVE_LATE,
    DEV_MS_MAP_KEY_TWICE,
    DEV_SPEC_DIRTY_BUSY_MAY_CRASH,
    DEV_SUSPEND_DIRTY_RAISES,
    DEV_PAUSED_TIMER_UNREACHABLE,
    DEV_MS_TEST_TRACE_FLAGS_CRASH,
    DEV_PORT_OWNER_DIRTY_KILL_MAY_CRASH,
    DEV_TIMED_WAIT_RECEIVE_SCHEDULED,
    DEV_MATCH_CONTEXT_ARG_CHANGES,
    DEV_COUNT
} Deviation;

/* An open together block (BLOCK-TOGETHER, ref/races/together.c): its steps' lines as chains, one
 * per process, and what the model checks so that no chain's lines depend on how they interleave. */
typedef struct Together {
    unsigned id;        /* its A lines' id, wN */
    int chain;          /* the process whose step wrote the lines last (its chain), -1: none yet */
    Stream held;        /* the ctl lines of its steps: the harness writes them after the block */
    unsigned first_sync; /* its sync points are numbered from this one on */
    unsigned windows, closes; /* Model.nwindows and Model.nwindow_closes when it opened */
    int nprocs;         /* the processes when it opened (its steps start none) */
    unsigned *flags;    /* per process and session: attached (bit 31) and flags at its first step (NULL before) */
    int *sender;        /* per process: the process whose steps sent to it in the block, -1: none,
                         * -2: two or more */
    bool *received;     /* per process: it took a message in the block */
    int *pair;          /* per two processes: the one whose step linked or unlinked them, -1: none */
    struct TogetherPattern *patterns; /* its pattern steps, the last first (ref/races/together.c) */
} Together;

/* The whole simulation. */
typedef struct Model {
    Arena *a;
    Arena *scratch;     /* the temporaries of the step being run (orders of sessions): emptied after
                         * each step, so a long scenario's memory does not grow with its steps */
    const Scenario *sc;
    bool spec_stepped;          /* a process spec or session step ran (ref/harness/peer.c) */
    Stream *out;
    Err *err;
    Proc *procs;        /* in the arena, grown by doubling: a Proc pointer lasts until the next
                         * model_add_proc (spawn, open_port and peer add one) */
    int nprocs;
    size_t procs_cap;
    StrMap proc_index;  /* a process's or port's name -> its index in procs */
    Session *sessions;  /* in the arena: the legacy session and the scenario's, fixed at model_init */
    int nsessions;
    bool loaded[FIXTURE_MODULES]; /* which fixture modules the node has loaded */
    bool loaded_once[FIXTURE_MODULES]; /* ... or had loaded at some step of the case */
    bool old_code[FIXTURE_MODULES]; /* ... and keeps the version a `load` made old, not purged since
                                     * (CALL-RELOAD-NOT-PURGED) */
    bool all_modules_pattern; /* a '_':'_'/'_' pattern was set: it reaches library functions the
                               * model does not know (lists:seq/2's seq_loop/3), LIB-TARGET-EXACT */
    bool bif_marked;    /* erlang:phash2/1's export entry marked is_bif_traced as OTP 27 keeps the
                         * mark: by the last pattern step on it, on or off in any session, cleared
                         * when a session is destroyed (C-446); a direct call of the BIF with the
                         * mark off is traced by no session there */
    bool seq_tracer;    /* the system seq tracer is the scenario's tracer (ref/events/seqtrace.c) */
    const char *peer_seq_tracer; /* the process on the peer node that is that node's system seq
                                  * tracer (`seq_trace tracer peer T`), or NULL (ref/harness/peer.c) */
    bool seq_tokens;    /* some process has been given a seq_trace token: until then no step
                         * needs to look for token holders among all processes */
    const Step *step;   /* the step being run: where an error found deeper down points */
    int step_no;        /* its number in the case, from 1 (0: before the first) */
    unsigned clock;     /* counts attach, pattern and create events, for their order */
    bool cpu_timestamp; /* the node-wide cpu_timestamp flag (TS-CPU) */
    bool on_dirty_scheduler; /* the tracepoint being written happens on a dirty scheduler (RUN-DIRTY-NIF) */
    unsigned nwindows;  /* allowance windows opened so far: the next one is w<nwindows + 1> */
    unsigned nwindow_closes; /* allowance windows closed so far */
    Together *together; /* the together block open, NULL: none (ref/races/together.c) */
    unsigned nsyncs;    /* the together blocks' sync points so far */
    int *windowed;      /* in the arena: the processes that may have an open window (grown by doubling) */
    int nwindowed;
    size_t windowed_cap;
    bool tracer_unloaded; /* the legacy tracer module was purged and deleted (TRACER-UNLOADED) */
    bool tracer_old_code; /* a reload made the recorder's old code, not purged since (TRACER-RELOAD-NOT-PURGED) */
    long long tcw;      /* the node's trace control word (MS-TCW), 0 when a case starts */
    const char *legacy_monitor; /* the process erlang:system_monitor/2 named (a scenario process or
                                 * tracer), NULL: none (ref/harness/sysmon.c) */
    const char *legacy_event; /* its one option: large_heap or long_schedule */
    long long legacy_limit; /* that option's limit: words, milliseconds */
    unsigned legacy_windows; /* long_schedule: the first of its windows (ref/events/longsched.c) */
    int legacy_nwindows; /* ... and how many are open, 0: none */
    bool heaps_grown;   /* a step that may give a harness's process a large heap has run (C-640) */
    int release;        /* 0: the documents; N: the prediction for OTP N (ref/state/release.c) */
    int deviated_at[DEV_COUNT]; /* per deviation of that release, the first step it applied at (from 1) */
    int deviated_last[DEV_COUNT]; /* ... and the last (a DEVIATION_MAY_CRASH's note names the range) */
    bool crashed;       /* that release's node crashes at the current step: the run ends there */
    int gc_range_from;  /* C-92 at a collection the runtime starts: the first step of the open range
                         * of steps at which the release's node may crash (0: none open) */
    int gc_range_last;  /* ... and its last step so far */
    int *gc_ranges;     /* in the arena: the closed ranges, first and last step of each in turn
                         * (grown by doubling) */
    int ngc_ranges;     /* ints in gc_ranges: two a range */
    size_t gc_ranges_cap;
    bool gc_two_sessions_seen; /* at some step, a process's collections were traced by two sessions
                                * or more (any release: the plan asks for lines step by step) */
    unsigned counter_epochs; /* counters started from zero so far (Counter.epoch) */
    bool loop_counter_reset; /* a call_time or call_memory counter was reset while a busy loop ran,
                              * which goes on (erlang/otp#8835, ref/harness/busyloop.c) */
    bool loop_spec_dirty; /* erlang:trace/3 on a process spec ran while a busy loop of a dirty NIF ran,
                           * which goes on (OTP-19034, ref/harness/busyloop.c) */
    bool may_crash_seen; /* either at some step, or a tracer port's burst of C-502's trigger (any
                          * release: the plan asks for lines step by step) */
    int loop_last_line, loop_last_col; /* the last step run while a loop ran: where a case that
                                        * ends without its idle is refused */
    const Term *match_context_arg; /* while a call of tcs_shapes:bs_sum_a/2 or bs_sum_b/2 after the first
                                    * is traced: its binary argument (by identity), which the runtime
                                    * holds as a match context (CALL-MATCH-CONTEXT-ARG, C-540); else NULL */
    Reading *readings;  /* in the arena, grown by doubling: the named counter readings so far */
    int nreadings;
    size_t readings_cap;
} Model;

/* Guarantees: m set up for scenario sc, writing to out, errors into err: the legacy session,
 * the scenario's sessions and processes (as many as it has), tcs_target loaded; true.
 * m must be zeroed. */
bool model_init(Model *m, Arena *a, const Scenario *sc, Stream *out, Err *err);
/* Guarantees: the index of the process called name, or -1. */
int model_proc(const Model *m, const char *name);
/* Guarantees: a new alive, untraced process without links; its index (the table grows). */
int model_add_proc(Model *m, const char *name);
/* Guarantees: q added to p's links (the array grows as needed). */
void model_add_link(Model *m, Proc *p, int q);
/* Guarantees: p's links (*n of them), which p no longer has: the array is the caller's to
 * walk while links change, p starts a new one. */
int *model_take_links(Proc *p, int *n);
/* Guarantees: the symbolic pid term of process p. */
Term *model_pid(Model *m, int p);
/* Guarantees: the symbolic identity of p: its port term for a port, else its pid term. */
Term *model_id(Model *m, int p);
/* Guarantees: p printed as a tracee: <name> for a process, <port:name> for a port. */
void model_print_id(Buf *out, const Model *m, int p);
/* Guarantees: the category of tag for tracee p (tag_category or tag_category_port). */
bool model_category(const Model *m, int p, const char *tag, Category *out);
/* Guarantees: the category whose callbacks tag's tracepoint of p calls (FALLBACK-ENABLED,
 * FALLBACK-TRACE): model_category's, but ports for a driver port's timer 'receive'
 * (PORTS-TIMEOUT-CALLBACKS); the flag that decides the tracepoint stays model_category's. */
bool model_dispatch_category(const Model *m, int p, const char *tag, Category *out);
/* Guarantees: false with err at (line,col) and a message ending in "not supported by model v1". */
bool model_unsupported(Model *m, int line, int col, const char *what);
/* Guarantees: true iff the session's tracer is attached to the trace state with some flag. */
bool model_attached(const TraceState *ts);
/* Guarantees: the tracer removed from the trace state of a process or port: no flags, not
 * attached. */
void model_detach(TraceState *ts);
/* Guarantees: true iff p is a live scenario process waiting in the harness's gate: not a port,
 * not blocked in a receive, not suspended on a busy port; the settle after a step wakes each
 * such process (tcs_runner:settle/1 pokes the gate), and erts schedules it in. */
bool model_waits_in_gate(const Proc *p);
/* Guarantees: true iff the tracer answers remove to every trace_status probe: the example
 * tracer whose state process has exited (STATUS-DEAD-STATE). */
bool model_tracer_gone(Tracer t);
/* Guarantees: session s's defaults for new processes (new ports when ports) as a read of them
 * leaves them (a spawn, an opened port, trace_info of new): cleared when the session's tracer
 * is gone (PROCS-NEW-READ); true iff that cleared some flag. No line: the probe at a read is
 * not predicted (C-93). */
bool model_read_new_defaults(Model *m, int s, bool ports);
/* Guarantees: the send (send true) or the 'receive' pattern of session ses; the two are
 * separate (MSGPAT-SEPARATE). */
MessagePattern *model_message_pattern(Session *ses, bool send);
/* Guarantees: module mod is loaded; its functions get each session's on_load pattern, with
 * a new place in the order where that sets them (SESSION-ORDER-CALL). */
void model_load_module(Model *m, FixtureModule mod);
/* Guarantees: true when some session has a pattern (call, meta or counter) on a function of
 * module mod. */
bool model_module_patterned(const Model *m, FixtureModule mod);
/* Guarantees: no session has a pattern on the functions of module mod (CALL-RELOAD-NEW-INSTANCE). */
void model_clear_module_patterns(Model *m, FixtureModule mod);
/* Guarantees: module mod is not loaded and has no old code, and no session has a pattern on its
 * functions (CALL-PATTERN-MODULE-DELETED). */
void model_unload_module(Model *m, FixtureModule mod);

#endif
