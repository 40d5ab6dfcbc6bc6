/* steps.h - the step table: one row per kind of step (cases/README.md "Steps"), the one place
 * its keyword, its plan name and what the model does with it are written, as Lua's lopcodes.h.
 * The parser (scenario.c), the plan printer (plan.c), the runner (run/run.c), the windows
 * (events/windows.c) and seq_trace (events/seqtrace.c) read it; a new kind of step is one row
 * here plus its handler, and the compiler (-Wswitch) names the parser's and the plan's switch
 * cases a step with arguments needs. */
#ifndef TCS_STEPS_H
#define TCS_STEPS_H
#include <stdbool.h>

/* X(KIND, PLAN, KEYWORD, BY, SETTLES, TOKEN, HANDLER), one row per StepKind, in its order:
 *   PLAN     the step's name in the plan, {PLAN, ...} (PROTOCOLS.md section 2)
 *   KEYWORD  how a case writes it: a process's step, the word after the process's name; the
 *            harness's, the words the line begins with; NULL: the session steps, whose keywords
 *            are TCS_SESSION_OPS's
 *   BY       BY_PROCESS: the process st->actor does it (the runner checks that it can);
 *            BY_HARNESS: the harness does it
 *   SETTLES  the harness settles after it (tcs_runner:settle/1 pokes the gate, waking every
 *            puppet waiting in it); the steps the harness does alone leave the puppets be
 *   TOKEN    a process holding a seq_trace token passes it on with this step in a way model v1
 *            leaves out, so the model refuses the step then
 *   HANDLER  the function that runs it; only run/run.c expands this column, for the handlers
 *            live in layers above this one
 * run/run.c expands SETTLES (harness_settles) and HANDLER, events/seqtrace.c TOKEN
 * (seqtrace_allows); steps.c the rest, for the parser, the plan and the windows. */
#define TCS_STEPS(X)                                                                                  \
    /* trace P|SPEC on|off F... [rounds N [within MS]]: erlang:trace/3; with rounds (SPEC on call     \
     * only), N calls back to back, an off between each two (PROCS-SPEC-ROUNDS) */                   \
    X(ST_TRACE, "trace", "trace", BY_HARNESS, true, false, procspec_step)                             \
    X(ST_PATTERN, "pattern", "pattern", BY_HARNESS, true, false, run_pattern)                         \
    X(ST_SEND, "send", "send", BY_PROCESS, true, false, messages_send)                                \
    X(ST_RECV, "recv", "recv", BY_PROCESS, true, false, messages_recv)                                \
    X(ST_CALL, "call", "call", BY_PROCESS, true, false, calls_step)                                   \
    X(ST_SPAWN, "spawn", "spawn", BY_PROCESS, true, true, procs_spawn)                                \
    X(ST_LINK, "link", "link", BY_PROCESS, true, true, run_link)                                      \
    X(ST_UNLINK, "unlink", "unlink", BY_PROCESS, true, true, run_unlink)                              \
    X(ST_REGISTER, "register", "register", BY_PROCESS, true, false, run_register)                     \
    X(ST_UNREGISTER, "unregister", "unregister", BY_PROCESS, true, false, run_unregister)             \
    X(ST_EXIT, "exit", "exit", BY_PROCESS, true, false, procs_exit)                                   \
    X(ST_OPEN_PORT, "open_port", "open_port", BY_PROCESS, true, true, ports_open)                     \
    X(ST_PORT_COMMAND, "port_command", "port_command", BY_PROCESS, true, true, run_port_command)      \
    X(ST_PORT_SEND, "port_send", "port_send", BY_PROCESS, true, true, run_port_send)                  \
    X(ST_PORT_CLOSE, "port_close", "port_close", BY_PROCESS, true, true, ports_close)                 \
    X(ST_GC, "gc", "gc", BY_PROCESS, true, false, gc_step)                                            \
    X(ST_SEQ_TRACER, "seq_tracer", "seq_trace tracer", BY_HARNESS, true, false, seqtracer_step)       \
    X(ST_SEQ_TOKEN, "seq_token", "seq_token", BY_PROCESS, true, false, seqtrace_step)                 \
    X(ST_SEQ_PRINT, "seq_print", "seq_print", BY_PROCESS, true, false, seqtrace_step)                 \
    X(ST_SEQ_RESET, "seq_reset", "seq_reset", BY_PROCESS, true, false, seqtrace_step)                 \
    X(ST_SESSION, "session", NULL, BY_HARNESS, true, false, sessions_step)                            \
    X(ST_SPAWN_LINK, "spawn_link", "spawn_link", BY_PROCESS, true, true, procs_spawn)                 \
    X(ST_INFO, "info", "info", BY_HARNESS, false, false, run_info)                                    \
    X(ST_TRACER_EXIT, "tracer_exit", "tracer exit", BY_HARNESS, false, false, status_tracer_exit)     \
    X(ST_KILL, "kill", "kill", BY_PROCESS, true, true, signals_kill)                                  \
    X(ST_TRAP_EXIT, "trap_exit", "trap_exit", BY_PROCESS, true, false, signals_trap_exit)             \
    X(ST_MONITOR, "monitor", "monitor", BY_PROCESS, true, false, signals_monitor)                     \
    X(ST_SEND_NAME, "send_name", "send_name", BY_PROCESS, true, false, messages_send_name)            \
    X(ST_TRACER_UNLOAD, "tracer_unload", "tracer unload", BY_HARNESS, false, false, tracermod_unload) \
    X(ST_TRACER_RELOAD, "tracer_reload", "tracer reload", BY_HARNESS, false, false, tracermod_reload) \
    X(ST_MODULE_UNLOAD, "module_unload", "unload", BY_HARNESS, false, false, fixturecode_unload)      \
    X(ST_MODULE_LOAD, "module_load", "load", BY_HARNESS, false, false, fixturecode_load)              \
    X(ST_PORT_CONTROL, "port_control", "port_control", BY_PROCESS, true, true, drvports_control)      \
    X(ST_SYSTEM_MONITOR, "system_monitor", "system_monitor", BY_HARNESS, false, false, run_sysmon)    \
    X(ST_RELATION, "relation", "relation", BY_HARNESS, false, false, readings_relation)               \
    /* tracer reload while A calls M:F(Args): the tracer module reloaded while A calls */             \
    X(ST_TRACER_RELOAD_BUSY, "tracer_reload_busy", "tracer reload while", BY_HARNESS, false, false,   \
      busyreload_step)                                                                                \
    /* A loop M:F(Args) ... A idle: A calls M:F(Args) over and over across the steps between */      \
    X(ST_LOOP, "loop", "loop", BY_PROCESS, false, false, busyloop_start)                              \
    X(ST_IDLE, "idle", "idle", BY_PROCESS, false, false, busyloop_stop)                              \
    /* A wait MS while B sends T: A waits in a receive with no clause, B sends it T meanwhile */      \
    X(ST_WAIT, "wait", "wait", BY_PROCESS, true, true, messages_timed_wait)                          \
    /* suspend A [Opts], resume A: erlang:suspend_process/1,2 and resume_process/1 of a blocked one */ \
    X(ST_SUSPEND, "suspend", "suspend", BY_HARNESS, true, false, suspend_step)                         \
    X(ST_RESUME, "resume", "resume", BY_HARNESS, true, false, suspend_resume)                          \
    /* status A: process_info(A, status) of a blocked or suspended process, read by the harness */    \
    X(ST_STATUS, "status", "status", BY_HARNESS, false, false, suspend_status)                         \
    /* tracer port: the harness opens a port that becomes the legacy tracer (PORT-TRACER) */          \
    X(ST_TRACER_PORT, "port_tracer", "tracer port", BY_HARNESS, false, false, porttracer_step)           \
    /* peer R: a second node started with module peer, and a process R there (DIST-*) */              \
    X(ST_PEER, "peer", "peer", BY_HARNESS, true, false, peer_start)                                \
    /* seq_trace tracer peer T: a new process T on the peer node becomes that node's seq tracer */    \
    X(ST_PEER_SEQ_TRACER, "peer_seq_tracer", "seq_trace tracer peer", BY_HARNESS, true, false,      \
      peer_seq_tracer)                                                                               \
    /* A ms_test Args MS: A evaluates erlang:match_spec_test(Args, MS, trace) (MS-TEST-*) */          \
    X(ST_MS_TEST, "ms_test", "ms_test", BY_PROCESS, true, false, mstest_step)                          \
    /* P suspend Q, P resume Q: P calls erlang:suspend_process(Q), resume_process(Q) (SUSPEND-BY-*) */ \
    X(ST_PROC_SUSPEND, "proc_suspend", "suspend", BY_PROCESS, true, true, suspend_by_process)          \
    X(ST_PROC_RESUME, "proc_resume", "resume", BY_PROCESS, true, true, suspend_resume_by_process)   \
    /* start_timer A MS, cancel_timer A: erlang:start_timer(MS, A, tcs_timer), cancel_timer/1 of it */ \
    X(ST_TIMER, "start_timer", "start_timer", BY_HARNESS, false, false, timers_start)                  \
    X(ST_CANCEL_TIMER, "cancel_timer", "cancel_timer", BY_HARNESS, false, false, timers_cancel)         \
    /* kill_all tracer P... [rounds N]: exit(X, kill) to the tracer port's owner, then to each P, in \
     * one burst; with rounds, N - 1 more bursts on processes and a port of the harness's own */    \
    X(ST_KILL_ALL, "kill_all", "kill_all", BY_HARNESS, true, false, porttracer_kill_all)              \
    /* together ... end: the steps between, of two processes or more, start together (one poke of    \
     * the gate, as a settle); each process does its own in order, all at once (BLOCK-TOGETHER) */  \
    X(ST_TOGETHER, "together", "together", BY_HARNESS, true, false, together_begin)                    \
    X(ST_TOGETHER_END, "together_end", "end", BY_HARNESS, true, false, together_end)                    \
    /* P pattern M:F/A MS OPTS: P calls erlang:trace_pattern/3 (global or local only; PATTERN-BY-PROCESS) */ \
    X(ST_PROC_PATTERN, "proc_pattern", "pattern", BY_PROCESS, true, false, patterns_by_process)

/* X(OP, PLAN, KEYWORD), one row per SessionOp, in its order: the trace session steps
 * (cases/README.md "Trace sessions"), one call of module trace each, planned as
 * {session, {PLAN, ...}}; KEYWORD begins the line (trace, pattern and info followed by a
 * session are the session forms of the harness's steps of that keyword); NULL: written as
 * `pattern REF send|'receive' ...`, which the parser turns from SO_FUNCTION into these. */
#define TCS_SESSION_OPS(X)                                                                            \
    X(SO_CREATE, "create", "create")                                                                  \
    X(SO_DESTROY, "destroy", "destroy")                                                               \
    X(SO_DROP, "drop", "drop")                                                                        \
    X(SO_PROCESS, "process", "trace")                                                                 \
    X(SO_FUNCTION, "function", "pattern")                                                             \
    X(SO_SEND, "send", NULL)                                                                          \
    X(SO_RECV, "recv", NULL)                                                                          \
    X(SO_INFO, "info", "info")                                                                        \
    X(SO_SESSION_INFO, "session_info", "session_info")                                                \
    X(SO_DELIVERED, "delivered", "delivered")                                                         \
    X(SO_SYSTEM, "system", "system")                                                                  \
    X(SO_APPLY, "call", "apply")

#define TCS_STEP_ENUM(kind, ...) kind,
typedef enum { TCS_STEPS(TCS_STEP_ENUM) } StepKind;
typedef enum { TCS_SESSION_OPS(TCS_STEP_ENUM) } SessionOp;
#undef TCS_STEP_ENUM
#define TCS_STEP_ONE(...) 1 +
enum { STEP_KINDS = TCS_STEPS(TCS_STEP_ONE) 0, SESSION_OPS = TCS_SESSION_OPS(TCS_STEP_ONE) 0 };
#undef TCS_STEP_ONE

/* Who does a step (the BY column). */
typedef enum { BY_PROCESS, BY_HARNESS } StepDoer;

/* Guarantees: the step's name in the plan. */
const char *step_plan_name(StepKind kind);
/* Guarantees: the words a case begins the step with (after the process's name for a process's
 * step), blank-separated; NULL for ST_SESSION. */
const char *step_keyword(StepKind kind);
/* Guarantees: true iff the process st->actor names does the step (BY_PROCESS). */
bool step_by_process(StepKind kind);
/* Guarantees: the session step's name in the plan ({session, {NAME, ...}}). */
const char *session_op_plan_name(SessionOp op);
/* Guarantees: the word a case begins the session step with; NULL for SO_SEND and SO_RECV,
 * written as a pattern (SO_FUNCTION) of send or 'receive'. */
const char *session_op_keyword(SessionOp op);

#endif
