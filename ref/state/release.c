/* release.c - what a release does where a clarification of CONFORMANCE.md records that it
 * deviates from the documents. The model follows the documents (release 0); asked for the
 * release a clarification names, it predicts that release's deviation exactly as the
 * clarification defines it, so that a disagreement of any shape can be checked against the
 * clarification rather than against the shapes listed in expectations/otpN.toml. */
#include "release.h"

#include <string.h>

/* Per deviation: the release it was seen on (and the last one, when it was seen on several:
 * `last`, 0 for the one release), its clarification, and what it does. */
static const struct {
    int release, last;
    const char *clarification;
    const char *what;
} deviations[DEV_COUNT] = {
    [DEV_LINK_PASSES_NO_FLAGS] = {25, 0, "C-41", "link/1 by a process with set_on_link or set_on_first_link "
                                              "passes no trace flags"},
    [DEV_GC_TWO_SESSIONS_CRASH] = {27, 0, "C-92", "the node crashes at a collection traced by two sessions "
                                               "(erlang/otp#11624)"},
    [DEV_STRAY_SILENT_CRASH] = {25, 0, "C-150", "the node crashes at erlang:trace/3 on a process that a meta match "
                                                "spec made silent while it had no tracer (erlang/otp#6448)"},
    [DEV_STRAY_SILENT_INFO] = {25, 0, "C-415", "trace_info(P, flags) of a process that a meta match spec made "
                                               "silent while it had no tracer answers {flags,[silent]}"},
    [DEV_LINK_DEAD_TRAP_NO_LINK] = {25, 27, "C-155", "link/1 to a dead process by a process trapping exits "
                                                     "delivers {'EXIT', Pid, noproc} with no link made "
                                                     "(no getting_unlinked)"},
    [DEV_INHERIT_REPLACES_DEFAULTS] = {27, 29, "C-48", "a child that inherits its parent's trace flags at its "
                                                       "creation gets them in place of the defaults for new "
                                                       "processes, not beside them"},
    [DEV_META_ITEM_NIL] = {25, 27, "C-210", "trace_info of a function traced otherwise but not meta-traced "
                                            "answers {meta,[]} for the item meta"},
    [DEV_PORT_SEND_PATTERN_IGNORED] = {25, 0, "C-85", "a port's send is traced although the send pattern is "
                                                    "false"},
    [DEV_DOWN_TERM_REASON_CLEARS_TOKEN] = {25, 0, "C-360", "a 'DOWN' message whose reason is no immediate term "
                                                        "(a tuple, ...) clears the seq_trace token of the "
                                                        "process receiving it"},
    [DEV_ON_LOAD_ALL_FIVE] = {27, 29, "C-25", "trace:info(S, on_load, all) lists five items, without call_memory "
                                             "and call_time"},
    [DEV_INFO_ITEM_EXPLAINS_WHAT] = {27, 0, "C-90", "the error_info of trace:info/3 refused for its item explains "
                                                   "argument 2, not 3"},
};

bool release_crashes(Deviation d)
{
    static const char crash_words[] = "the node crashes";
    return strncmp(deviations[d].what, crash_words, sizeof crash_words - 1) == 0;
}

void release_describe(Deviation d, int *first, int *last, const char **clarification)
{
    *first = deviations[d].release;
    *last = deviations[d].last ? deviations[d].last : deviations[d].release;
    *clarification = deviations[d].clarification;
}

bool release_deviates(Model *m, Deviation d)
{
    int first, last;
    const char *clarification;
    release_describe(d, &first, &last, &clarification);
    if (m->release < first || m->release > last)
        return false;
    if (m->deviated_at[d] == 0)
        m->deviated_at[d] = m->step ? (int)(m->step - m->sc->steps) + 1 : 0;
    return true;
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

/* C-92 at a collection the runtime starts by itself (GC-RUNTIME): which step fills a process's
 * young heap depends on what the harness allocates in it, which no model tracks, so the release
 * note names a range of steps, not a step (fuzz_20261126_352 crashed at step 19 or 20). */
static const char GC_RANGE_WHAT[] = "the node may crash (SIGSEGV or SIGABRT) at a collection the runtime "
                                    "starts in a process whose collections two sessions trace "
                                    "(erlang/otp#11624), or not crash";

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
    int first, last;
    const char *clarification;
    release_describe(DEV_GC_TWO_SESSIONS_CRASH, &first, &last, &clarification);
    if (m->release < first || m->release > last)
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
    buf_printf(note, "otp %d follows %s at steps %d-%d: %s", m->release,
               deviations[DEV_GC_TWO_SESSIONS_CRASH].clarification, m->gc_ranges[2 * i], m->gc_ranges[2 * i + 1],
               GC_RANGE_WHAT);
    return true;
}

bool release_stray_silent(const Model *m, int p)
{
    return m->procs[p].untraced_silent && !model_attached(&m->procs[p].trace[LEGACY_SESSION]);
}

bool release_note(const Model *m, Deviation d, Buf *note)
{
    if (m->deviated_at[d] == 0)
        return false;
    buf_printf(note, "otp %d follows %s at step %d: %s", m->release, deviations[d].clarification,
               m->deviated_at[d], deviations[d].what);
    return true;
}
