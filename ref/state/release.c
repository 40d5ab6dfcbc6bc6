/* release.c - what a release does where a clarification of CONFORMANCE.md records that it
 * deviates from the documents. The model follows the documents (release 0); asked for the
 * release a clarification names, it predicts that release's deviation exactly as the
 * clarification defines it, so that a disagreement of any shape can be checked against the
 * clarification rather than against the shapes listed in expectations/otpN.toml. */
#include "release.h"

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
    [DEV_LINK_DEAD_TRAP_NO_LINK] = {25, 27, "C-155", "link/1 to a dead process by a process trapping exits "
                                                     "delivers {'EXIT', Pid, noproc} with no link made "
                                                     "(no getting_unlinked)"},
    [DEV_INHERIT_REPLACES_DEFAULTS] = {27, 29, "C-48", "a child that inherits its parent's trace flags at its "
                                                       "creation gets them in place of the defaults for new "
                                                       "processes, not beside them"},
    [DEV_META_ITEM_NIL] = {25, 27, "C-210", "trace_info of a function traced otherwise but not meta-traced "
                                            "answers {meta,[]} for the item meta"},
};

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
