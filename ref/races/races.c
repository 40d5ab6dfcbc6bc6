/* races.c - the table of the runtime's races, and the windows and either-ors opened from it
 * (PROTOCOLS.md section 6; CONFORMANCE.md section 2, "Runtime additions"). */
#include <string.h>

#include "races.h"
#include "control.h"
#include "release.h"

/* The "what ... is" part of a refusal, which model_unsupported completes ("... is not supported by
 * model v1"), as badcalls.c's refused() takes it. */
#define refused(what) what

/* The refusal of the runtime's additions to a process: collections and scheduling. */
static const char REFUSE_ADDITION[] = refused("what the runtime may add (collections, scheduling: GC-RUNTIME, "
                                              "RUN-BLOCKED-SIGNALS, RUN-WAIT-*) for a process whose tracer answers "
                                              "remove to it is");

/* The refusal of races_either_order: the alternatives leave the trace control word otherwise. */
static const char REFUSE_TCW_ORDER[] = refused("a match spec that sets the trace control word otherwise in the two "
                                               "orders of a race (a timed wait's message and timeout, C-760) is");

/* The table of the runtime's races (CONFORMANCE.md section 2 states each rule; the C-numbers are
 * the clarifications that found them). */
static const RaceRow RACE_ROWS[RACE_COUNT] = {
    [RACE_GC_MINOR] = {"GC-RUNTIME", -1, "gc_minor_start", "gc_minor_end", RACE_ASK_BOTH,
                       "gc_minor_start ; gc_minor_end, any number, while traced for garbage_collection (C-95)",
                       REFUSE_ADDITION},
    [RACE_GC_MAJOR] = {"GC-RUNTIME", -1, "gc_major_start", "gc_major_end", RACE_ASK_BOTH,
                       "gc_major_start ; gc_major_end, any number, while traced for garbage_collection (C-95)",
                       REFUSE_ADDITION},
    [RACE_BLOCKED_SIGNALS] = {"RUN-BLOCKED-SIGNALS", -1, "in", "out", RACE_ASK_BOTH,
                              "in ... out where it waits, while blocked in a receive or suspended on a busy port "
                              "(C-96, C-231)",
                              REFUSE_ADDITION},
    [RACE_BLOCKED_INHERIT] = {"RUN-BLOCKED-INHERIT", 1, "in", "out", RACE_ASK_BOTH,
                              "in (flags before) ... out (flags after) at {tcs_puppet,block,0}, from a link that "
                              "passes flags until the wake-up (C-135)",
                              REFUSE_ADDITION},
    [RACE_WAIT_OPEN_PORT] = {"RUN-WAIT-OPEN-PORT", -1, "out", "in", RACE_ASK_BOTH,
                             "out ... in at {erlang,open_port,2}, any number (C-97, C-700)", REFUSE_ADDITION},
    [RACE_WAIT_CODE_LOAD] = {"RUN-WAIT-CODE-LOAD", -1, "out", "in", RACE_ASK_BOTH,
                             "out ... in at {code_server,call,1} (C-366)", REFUSE_ADDITION},
    [RACE_PREEMPT_CODE_LOAD] = {"RUN-PREEMPT-CODE-LOAD", 1, "out", "in", RACE_ASK_BOTH,
                                "out ... in at one function of the load path, each (C-366)", REFUSE_ADDITION},
    [RACE_WAIT_PORT_SIGNALS] = {"RUN-WAIT-PORT-SIGNALS", 1, "out", "in", RACE_ASK_BOTH,
                                "out ... in at {erlang,bif_handle_signals_return,2} (C-97)", REFUSE_ADDITION},
    [RACE_WAIT_PORT_OP_REPLY] = {"RUN-WAIT-PORT-OP-REPLY", 1, "out", "in", RACE_ASK_BOTH,
                                 "out ... in at the port BIF's erlang wrapper (C-230)", REFUSE_ADDITION},
    [RACE_WAKE_LINK_DOWN] = {"RUN-WAKE-LINK-DOWN", 1, "out", "in", RACE_ASK_BOTH,
                             "out ... in at {tcs_puppet,block,0} before the 'DOWN' (C-371)", REFUSE_ADDITION},
    [RACE_WAKE_SESSION_END] = {"RUN-WAKE-SESSION-END", -1, "out", "in", RACE_ASK_BOTH,
                               "out ... in where the process waits, after a trace session's end (C-820)",
                               REFUSE_ADDITION},
    [RACE_GC_DELAYED] = {"GC-RUNTIME-DELAYED", 1, "out", "in", RACE_ASK_BOTH,
                         "out ... in at {erlang,prepare_loading_1,2}, a whole minor or major pair right after "
                         "the in (C-136)",
                         REFUSE_ADDITION},
    [RACE_KILLED_LINKED] = {"RUN-KILLED-LINKED", 1, "in_exiting", NULL, RACE_ASK_FIRST, "in_exiting 0 (C-134)",
                            refused("the in_exiting the runtime may leave out (RUN-KILLED-LINKED) of a process "
                                    "whose tracer answers remove to it is")},
    [RACE_KILLED_DIRTY_OUT] = {"RUN-KILLED-DIRTY-OUT", 1, "out_exiting", NULL, RACE_ASK_FIRST,
                               "out_exiting 0, its enabled lines only, until out_exited (C-200, C-800)",
                               refused("the out_exiting the runtime may ask about on a dirty scheduler "
                                       "(RUN-KILLED-DIRTY-OUT) of a process whose tracer answers remove to it is")},
    [RACE_KILLED_DIRTY_MIGRATE] = {"RUN-KILLED-DIRTY-MIGRATE", 1, "in_exiting", "out_exiting", RACE_ASK_FIRST,
                                   "in_exiting 0 ; out_exiting 0, once with every line, once with the enabled "
                                   "lines only (C-300)",
                                   refused("the in_exiting and out_exiting the runtime may schedule before the exit "
                                           "(RUN-KILLED-DIRTY-MIGRATE) of a process whose tracer answers remove to "
                                           "in_exiting is")},
    [RACE_KILLED_EXIT_YIELD] = {"RUN-KILLED-EXIT-YIELD", -1, "out_exiting", "in_exiting", RACE_ASK_BOTH,
                                "out_exiting 0 ; in_exiting 0, any number (C-302, C-701)",
                                refused("the out_exiting and in_exiting of an exit that yields "
                                        "(RUN-KILLED-EXIT-YIELD) of a process whose tracer answers remove to one "
                                        "of them is")},
    [RACE_LARGE_HEAP] = {"SYSMON-LARGE-HEAP", -1, NULL, NULL, RACE_ASK_NONE,
                         "{monitor, Pid, large_heap, _Info} after the first (C-139)", NULL},
    [RACE_LONG_SCHEDULE] = {"SYSMON-LONG-SCHEDULE-ANY", -1, NULL, NULL, RACE_ASK_NONE,
                            "{monitor, Subject, long_schedule, _Info} about any process or port, while the monitor "
                            "is set (C-730)",
                            NULL},
    [RACE_RELOAD_BUSY] = {"TRACER-RELOAD-BUSY", -1, "call", NULL, RACE_ASK_NONE,
                          "the lines of one call of the busy loop (C-281)", NULL},
    [RACE_RELOAD_TRACE_INFO] = {"TRACER-RELOAD-RACE", 1, NULL, NULL, RACE_ASK_NONE,
                                "either-or: erlang:trace_info(A, tracer) as the tracer stands, or detached (C-281)",
                                NULL},
    [RACE_PORT_OP] = {"PORT-OP-TASK-OR-IMMEDIATE", 1, "in", "out", RACE_ASK_NONE,
                      "either-or: in and out named by the operation (immediate), or with 0 and the reply (port "
                      "task) (C-165)",
                      NULL},
    [RACE_BUSY_LOOP] = {"CALL-BUSY-LOOP", -1, "call", NULL, RACE_ASK_NONE,
                        "the lines of one call of a busy loop, as its call's trace stood at some step while the "
                        "loop ran (C-447)",
                        NULL},
    [RACE_SUSPEND_DIRTY] = {"SUSPEND-DIRTY", 1, NULL, NULL, RACE_ASK_NONE,
                            "either-or: suspend_process/1 of a process in a dirty NIF answers true, or raises "
                            "internal_error once the NIF returns, on a release with OTP-19799 (C-611)",
                            NULL},
    [RACE_TIMED_WAIT_SCHEDULED] = {"RECV-TIMED-WAIT", 1, NULL, NULL, RACE_ASK_NONE,
                                   "either-or: a timed wait's message received before its timeout, or after it "
                                   "when the waiting process is scheduled only once its timer has fired, on a "
                                   "release that receives it when the process is next scheduled (C-760)",
                                   NULL},
};

const RaceRow *races_row(Race r)
{
    return &RACE_ROWS[r];
}

unsigned races_open(Model *m, Race r, unsigned after, const char *tpl)
{
    return allow_open(m, races_row(r)->rule, races_row(r)->limit, after, tpl);
}

const char *races_template(Model *m, int p, AllowFire fire, const void *arg) { return allow_capture(m, p, fire, arg); }

unsigned races_window(Model *m, Race r, int p, AllowFire fire, const void *arg)
{
    const char *tpl = races_template(m, p, fire, arg);
    return tpl ? races_open(m, r, 0, tpl) : 0;
}

void races_close(Model *m, Race r, unsigned id)
{
    if (id)
        allow_close(m, id, races_row(r)->rule);
}

void races_either(Model *m, Race r, const Captured *const first[], const Captured *const second[], int n)
{
    allow_either(m, races_row(r)->rule, first, second, n);
}

void races_either_answer(Model *m, Race r, const char *call, const char *first, const char *second,
                         const char *rules)
{
    Captured one, other;
    allow_capture_start(m, &one);
    control_line(m, call, first, rules);
    allow_capture_stop(m, &one);
    allow_capture_start(m, &other);
    control_line(m, call, second, rules);
    allow_capture_stop(m, &other);
    const Captured *const firsts[] = {&one}, *const seconds[] = {&other};
    races_either(m, r, firsts, seconds, 1);
    allow_captured_free(&one);
    allow_captured_free(&other);
}

bool races_either_detached(Model *m, Race r, int p, int s, RaceRun run, const void *arg)
{
    AllowKept before = allow_keep(m, p);
    Captured kept, gone;
    allow_capture_start(m, &kept);
    bool ok = run(m, p, arg);
    allow_capture_stop(m, &kept);
    AllowKept after = allow_keep(m, p);
    allow_restore(m, p, &before);
    model_detach(&m->procs[p].trace[s]);
    allow_capture_start(m, &gone);
    ok = ok && run(m, p, arg);
    allow_capture_stop(m, &gone);
    allow_restore(m, p, &after);
    const Captured *first[] = {&kept}, *second[] = {&gone};
    if (ok)
        races_either(m, r, first, second, 1);
    allow_captured_free(&kept);
    allow_captured_free(&gone);
    return ok;
}

bool races_either_order(Model *m, Race r, Deviation d, int p, RaceRun run, const void *first, const void *second)
{
    AllowKept before = allow_keep(m, p);
    long long tcw_before = m->tcw;
    Captured one, other;
    allow_capture_start(m, &one);
    bool ok = run(m, p, first);
    allow_capture_stop(m, &one);
    AllowKept after = allow_keep(m, p);
    long long tcw_after = m->tcw;
    allow_restore(m, p, &before);
    m->tcw = tcw_before;
    allow_capture_start(m, &other);
    ok = ok && run(m, p, second);
    allow_capture_stop(m, &other);
    bool same_end = m->tcw == tcw_after;
    allow_restore(m, p, &after);
    m->tcw = tcw_after;
    if (ok && !same_end)
        ok = model_unsupported(m, m->step->line, m->step->col, REFUSE_TCW_ORDER);
    if (ok) {
        bool differ = strcmp(buf_str(&one.lines.text), buf_str(&other.lines.text)) != 0;
        const Captured *const firsts[] = {&one}, *const seconds[] = {&other};
        if (differ && release_deviates(m, d))
            races_either(m, r, firsts, seconds, 1);
        else
            allow_captured_write(m, &one);
    }
    allow_captured_free(&one);
    allow_captured_free(&other);
    return ok;
}
