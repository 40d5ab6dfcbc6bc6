/* release.c - what a release does where a clarification of CONFORMANCE.md records that it
 * deviates from the documents. The model follows the documents (release 0); asked for the
 * release a clarification names, it predicts that release's deviation exactly as the
 * clarification defines it, so that a disagreement of any shape can be checked against the
 * clarification rather than against the shapes listed in expectations/otpN.toml. */
#include "release.h"

/* The deviations: what each does to a run, the releases it names, the clarification that defines
 * it and what the release does (the words of its notes). Nothing decides by these words: the kind does. */
static const struct {
    DeviationKind kind;
    ReleaseRange releases;
    const char *clarification;
    const char *what;
} deviations[DEV_COUNT] = {
    [DEV_LINK_PASSES_NO_FLAGS] = {DEVIATION_STREAM, {25, 25}, "C-41",
                                  "link/1 by a process with set_on_link or set_on_first_link passes no trace flags"},
    [DEV_GC_TWO_SESSIONS_CRASH] = {DEVIATION_CRASH, {27, 27}, "C-92",
                                   "the node crashes at a collection traced by two sessions (erlang/otp#11624)"},
    /* C-92 at a collection the runtime starts by itself (GC-RUNTIME): which step fills a process's
     * young heap depends on what the harness allocates in it, which no model tracks, so the release
     * note names a range of steps, not a step (fuzz_20261126_352 crashed at step 19 or 20). */
    [DEV_GC_RUNTIME_MAY_CRASH] = {DEVIATION_MAY_CRASH, {27, 27}, "C-92",
                                  "the node may crash (SIGSEGV or SIGABRT) at a collection the runtime starts in a "
                                  "process whose collections two sessions trace (erlang/otp#11624), or not crash"},
    [DEV_STRAY_SILENT_CRASH] = {DEVIATION_CRASH, {25, 25}, "C-150",
                                "the node crashes at erlang:trace/3 on a process that a meta match spec made silent "
                                "while it had no tracer (erlang/otp#6448)"},
    [DEV_STRAY_SILENT_INFO] = {DEVIATION_STREAM, {25, 25}, "C-415",
                               "trace_info(P, flags) of a process that a meta match spec made silent while it had "
                               "no tracer answers {flags,[silent]}"},
    [DEV_LINK_DEAD_TRAP_NO_LINK] = {DEVIATION_STREAM, {25, 27}, "C-155",
                                    "link/1 to a dead process by a process trapping exits delivers "
                                    "{'EXIT', Pid, noproc} with no link made (no getting_unlinked)"},
    [DEV_INHERIT_REPLACES_DEFAULTS] = {DEVIATION_STREAM, {27, 29}, "C-48",
                                       "a child that inherits its parent's trace flags at its creation gets them in "
                                       "place of the defaults for new processes, not beside them"},
    [DEV_META_ITEM_NIL] = {DEVIATION_STREAM, {25, 27}, "C-210",
                           "trace_info of a function traced otherwise but not meta-traced answers {meta,[]} for "
                           "the item meta"},
    [DEV_PORT_SEND_PATTERN_IGNORED] = {DEVIATION_STREAM, {25, 25}, "C-85",
                                       "a port's send is traced although the send pattern is false"},
    [DEV_DOWN_TERM_REASON_CLEARS_TOKEN] = {DEVIATION_STREAM, {25, 25}, "C-360",
                                           "a 'DOWN' message whose reason is no immediate term (a tuple, ...) clears "
                                           "the seq_trace token of the process receiving it"},
    [DEV_ON_LOAD_ALL_FIVE] = {DEVIATION_STREAM, {27, 29}, "C-25",
                              "trace:info(S, on_load, all) lists five items, without call_memory and call_time"},
    [DEV_INFO_ITEM_EXPLAINS_WHAT] = {DEVIATION_STREAM, {27, 27}, "C-90",
                                     "the error_info of trace:info/3 refused for its item explains argument 2, not 3"},
    [DEV_MS_FUNCTION_BEFORE_OTP26] = {DEVIATION_STREAM, {RELEASE_OPEN, 25}, "C-12",
                                      "a match spec that calls is_boolean/1, is_bitstring/1, is_function/2, "
                                      "tuple_size/1, ceil/1, floor/1, min/2 or max/2 is badarg"},
    [DEV_BIF_MARK_CLEARED] = {DEVIATION_STREAM, {27, 27}, "C-446",
                              "a direct call of a BIF is traced by no session once a pattern step on it was off in "
                              "any session or a session was destroyed, until a pattern step on it is on "
                              "(OTP-19840, erlang/otp PR #10349)"},
    [DEV_RETURN_TO_CLOSEST_CATCH] = {DEVIATION_STREAM, {RELEASE_OPEN, 26}, "C-472",
                                     "an exception caught gives return_to only when the frame it is caught in "
                                     "called a return_to-traced function itself"},
    /* a race: the process must be inside the function at the reset (otp_bugs/gh8835.erl) */
    [DEV_COUNTER_RESET_BUSY_MAY_CRASH] = {DEVIATION_MAY_CRASH, {25, 25}, "C-448",
                                          "the node may crash (SIGSEGV or SIGFPE) once the call_time or "
                                          "call_memory counters of a function are reset while a process loops "
                                          "through it (erlang/otp#8835), or not crash"},
    [DEV_NOT_PURGED_CLEARS_PATTERNS] = {DEVIATION_STREAM, {RELEASE_OPEN, 25}, "C-480",
                                        "a load of a new version refused with not_purged clears every trace "
                                        "pattern of the module's current version (OTP-18979)"},
    [DEV_TIMED_WAIT_RECEIVE_LATE] = {DEVIATION_STREAM, {25, 25}, "C-490",
                                     "the 'receive' event of a message that reaches a process waiting in a "
                                     "receive with no clause on messages comes only when the wait ends, after "
                                     "its timeout event (OTP-19527, erlang/otp PR #9577)"},
    [DEV_MS_MAP_KEY_TWICE] = {DEVIATION_STREAM, {25, 29}, "C-445",
                              "a map of 32 keys or fewer built in a match spec whose keys turn out equal is "
                              "sorted by erts_usort_flatmap, which can keep a key twice and lose others"},
    /* a race: the process must be on the dirty scheduler as the call changes its flags (otp_bugs/pr8286.erl) */
    [DEV_SPEC_DIRTY_BUSY_MAY_CRASH] = {DEVIATION_MAY_CRASH, {25, 25}, "C-590",
                                       "the node may crash (SIGSEGV) once erlang:trace/3 on all, processes or "
                                       "existing changes trace flags while a process loops through a dirty NIF "
                                       "(OTP-19034, erlang/otp PR #8286), or not crash"},
    /* a race: the suspend must find the process on the dirty scheduler (otp_bugs/otp19799.erl) */
    [DEV_SUSPEND_DIRTY_RAISES] = {DEVIATION_STREAM, {25, 27}, "C-611",
                                  "erlang:suspend_process/1 of a process looping through a dirty NIF raises "
                                  "internal_error once the NIF returns, or answers true, the process suspended "
                                  "either way (OTP-19799, erlang/otp PR #10241)"},
    [DEV_PAUSED_TIMER_UNREACHABLE] = {DEVIATION_STREAM, {29, 29}, "C-660",
                                      "a BIF timer paused by erlang:suspend_process/1 of its receiver is not found "
                                      "by its reference: cancel_timer/1 answers false, and the timer fires after the "
                                      "resume with the time it had left"},
    [DEV_MS_TEST_TRACE_FLAGS_CRASH] = {DEVIATION_CRASH, {27, 29}, "C-560",
                                       "the node crashes (SIGSEGV) at trace/2,3 in a match spec that "
                                       "erlang:match_spec_test/3 runs, and at enable_trace/1,2 or disable_trace/1,2 "
                                       "that name a flag and a live process"},
    /* a race: a tracee must be on a dirty scheduler as the port closes (otp_bugs/porttracer_dirty_kill.erl) */
    [DEV_PORT_OWNER_DIRTY_KILL_MAY_CRASH] = {DEVIATION_MAY_CRASH, {25, 29}, "C-502",
                                             "the node may crash (SIGSEGV) once processes traced by a port for "
                                             "running_procs or running are killed while they run dirty, in one "
                                             "burst with the port's owner, or not crash"},
    /* a race: the waiter must not be scheduled between the send and its timer (fuzz/probes/timed_wait_calls.erl) */
    [DEV_TIMED_WAIT_RECEIVE_SCHEDULED] = {DEVIATION_STREAM, {27, RELEASE_OPEN}, "C-760",
                                          "the 'receive' event of a message that reaches a process waiting in a "
                                          "receive with no clause on messages comes when the process is next "
                                          "scheduled: before its timeout event, or after it when its timer fired "
                                          "first"},
    [DEV_MATCH_CONTEXT_ARG_CHANGES] = {DEVIATION_STREAM, {27, 29}, "C-540",
                                       "the binary argument a call trace message makes of a match context (a "
                                       "function tail-called with the rest of the binary it matches) reads one "
                                       "byte short once the process holding it has matched its first byte with "
                                       "the bit syntax"},
};

/* The names `tcsref deviations` gives the kinds. */
static const char *const kind_names[] = {
    [DEVIATION_STREAM] = "stream",
    [DEVIATION_CRASH] = "crash",
    [DEVIATION_MAY_CRASH] = "may-crash",
};

bool release_range_covers(ReleaseRange range, int release)
{
    return release > 0 && (range.first == RELEASE_OPEN || release >= range.first) &&
           (range.last == RELEASE_OPEN || release <= range.last);
}

bool release_has(const Model *m, Deviation d)
{
    return release_range_covers(deviations[d].releases, m->release);
}

bool release_deviates(Model *m, Deviation d)
{
    if (!release_range_covers(deviations[d].releases, m->release))
        return false;
    if (m->deviated_at[d] == 0)
        m->deviated_at[d] = m->step_no;
    m->deviated_last[d] = m->step_no;
    m->crashed |= deviations[d].kind == DEVIATION_CRASH;
    return true;
}

/* Whether a DEVIATION_CRASH names release. */
static bool crashes_at(int release)
{
    for (int d = 0; d < DEV_COUNT; d++)
        if (deviations[d].kind == DEVIATION_CRASH && release_range_covers(deviations[d].releases, release))
            return true;
    return false;
}

/* Which deviations a release has changes only where a range begins (its first) or where one has
 * ended (its last + 1), so those releases and release 1 stand for every release. */
int release_next_crashing(int after)
{
    int next = after < 1 && crashes_at(1) ? 1 : 0;
    for (int d = 0; d < DEV_COUNT; d++) {
        ReleaseRange r = deviations[d].releases;
        int starts[2] = {r.first, r.last == RELEASE_OPEN ? RELEASE_OPEN : r.last + 1};
        for (int i = 0; i < 2; i++)
            if (starts[i] != RELEASE_OPEN && starts[i] > after && (next == 0 || starts[i] < next) &&
                crashes_at(starts[i]))
                next = starts[i];
    }
    return next;
}

/* A bound of a range as `tcsref deviations` prints it: the release, or "-" when open. */
static void put_bound(Buf *out, int bound)
{
    if (bound == RELEASE_OPEN)
        buf_puts(out, "-");
    else
        buf_printf(out, "%d", bound);
}

void release_deviations_print(Buf *out)
{
    for (int d = 0; d < DEV_COUNT; d++) {
        buf_printf(out, "%s\t%s\t", deviations[d].clarification, kind_names[deviations[d].kind]);
        put_bound(out, deviations[d].releases.first);
        buf_puts(out, "\t");
        put_bound(out, deviations[d].releases.last);
        buf_printf(out, "\t%s\n", deviations[d].what);
    }
}

bool release_gc_in_two_sessions(const Model *m, int p)
{
    int tracing = 0;
    for (int s = 0; s < m->nsessions; s++) {
        const TraceState *t = &m->procs[p].trace[s];
        tracing += model_attached(t) && (t->flags & FLAG_BIT(FL_GARBAGE_COLLECTION));
    }
    return tracing >= 2;
}

static bool gc_two_sessions_anywhere(const Model *m)
{
    if (m->nsessions < 2) /* the legacy session alone */
        return false;
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].alive && !m->procs[p].is_port && release_gc_in_two_sessions(m, p))
            return true;
    return false;
}

bool release_gc_range_before(const Model *m)
{
    return gc_two_sessions_anywhere(m);
}

void release_gc_range_step(Model *m, int step, bool before)
{
    bool during = before || gc_two_sessions_anywhere(m);
    m->gc_two_sessions_seen |= during;
    if (!release_range_covers(deviations[DEV_GC_RUNTIME_MAY_CRASH].releases, m->release))
        return;
    if (!during) {
        release_gc_range_close(m);
        return;
    }
    if (!m->gc_range_from)
        m->gc_range_from = step;
    m->gc_range_last = step;
}

void release_gc_range_close(Model *m)
{
    if (!m->gc_range_from)
        return;
    for (int k = 0; k < 2; k++) {
        m->gc_ranges = arena_grow(m->a, m->gc_ranges, (size_t)m->ngc_ranges, &m->gc_ranges_cap, sizeof *m->gc_ranges);
        m->gc_ranges[m->ngc_ranges++] = k ? m->gc_range_last : m->gc_range_from;
    }
    m->gc_range_from = m->gc_range_last = 0;
}

bool release_gc_range_note(const Model *m, int i, Buf *note)
{
    if (2 * i >= m->ngc_ranges)
        return false;
    const Deviation d = DEV_GC_RUNTIME_MAY_CRASH;
    buf_printf(note, "otp %d follows %s at steps %d-%d: %s", m->release, deviations[d].clarification,
               m->gc_ranges[2 * i], m->gc_ranges[2 * i + 1], deviations[d].what);
    return true;
}

const Term *release_matched_call(Model *m, const Term *mfa)
{
    const Term *arg = m->match_context_arg;
    if (!arg || arg->kind != TK_BIN || arg->u.bin.n == 0 || mfa->kind != TK_TUPLE || mfa->u.tuple.n != 3)
        return mfa;
    /* {M, F, Args} (not {M, F, Arity}): the argument that is the match context, if it is among them */
    size_t n = 0;
    bool among = false;
    for (const Term *c = mfa->u.tuple.el[2]; c->kind == TK_CONS; c = c->u.cons.tail, n++)
        among |= c->u.cons.head == arg;
    if (!among || !release_deviates(m, DEV_MATCH_CONTEXT_ARG_CHANGES))
        return mfa;
    /* read after <<_, _/binary>> matched its first byte */
    Term **args = arena_alloc(m->a, n * sizeof *args);
    size_t i = 0;
    for (const Term *c = mfa->u.tuple.el[2]; c->kind == TK_CONS; c = c->u.cons.tail, i++)
        args[i] = c->u.cons.head == arg ? term_bin(m->a, arg->u.bin.n - 1, arg->u.bin.bytes + 1) : c->u.cons.head;
    Term *el[3] = {mfa->u.tuple.el[0], mfa->u.tuple.el[1], term_list(m->a, n, args)};
    return term_tuple(m->a, 3, el);
}

bool release_stray_silent(const Model *m, int p)
{
    return m->procs[p].untraced_silent && !model_attached(&m->procs[p].trace[LEGACY_SESSION]);
}

bool release_note(const Model *m, Deviation d, Buf *note)
{
    if (m->deviated_at[d] == 0)
        return false;
    bool range = deviations[d].kind == DEVIATION_MAY_CRASH && m->deviated_last[d] > m->deviated_at[d];
    buf_printf(note, "otp %d follows %s at step%s %d", m->release, deviations[d].clarification, range ? "s" : "",
               m->deviated_at[d]);
    if (range)
        buf_printf(note, "-%d", m->deviated_last[d]);
    buf_printf(note, ": %s", deviations[d].what);
    return true;
}

const char *release_ms_invalid(Model *m, const Step *st)
{
    if (st->ms_invalid)
        return st->ms_invalid;
    if (st->ms_otp26 && release_deviates(m, DEV_MS_FUNCTION_BEFORE_OTP26))
        return "MS-UNKNOWN-FUNCTION";
    return NULL;
}
