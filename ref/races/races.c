/* races.c - the table of the runtime's races, and the windows and either-ors opened from it
 * (PROTOCOLS.md section 6; CONFORMANCE.md section 2, "Runtime additions"). */
#include "enabled.h"
#include "races.h"

#define RACE_ROW(id, rule, limit, first, second, asked, tpl, refusal) {rule, limit, first, second, asked, tpl, refusal},
static const RaceRow RACE_ROWS[RACE_COUNT] = {RACES(RACE_ROW)};
#undef RACE_ROW

const RaceRow *races_row(Race r) { return &RACE_ROWS[r]; }

/* True iff a session that would trace tag of p answers remove to it. */
static bool tag_removes(const Model *m, int p, const char *tag)
{
    for (int s = 0; s < m->nsessions; s++)
        if (enabled_live(m, s, p, tag) && m->sessions[s].tracer->kind != TRACER_PROCESS &&
            enabled_answer(enabled_session_tracer(m, s), tag) == ANS_REMOVE)
            return true;
    return false;
}

bool races_remove_answered(const Model *m, int p, Race r)
{
    const RaceRow *row = races_row(r);
    return ((row->asked & RACE_ASK_FIRST) && tag_removes(m, p, row->first)) ||
           ((row->asked & RACE_ASK_SECOND) && tag_removes(m, p, row->second));
}

bool races_refuse(Model *m, Race r)
{
    return model_unsupported(m, m->step->line, m->step->col, races_row(r)->refusal);
}

unsigned races_open(Model *m, Race r, unsigned after, const char *tpl)
{
    return allow_open(m, races_row(r)->rule, races_row(r)->limit, after, tpl);
}

unsigned races_window(Model *m, Race r, int p, AllowFire fire, const void *arg)
{
    const char *tpl = allow_capture(m, p, fire, arg);
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
