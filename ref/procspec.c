/* procspec.c - what erlang:trace/3 does with its first argument and its flags: which
 * processes it names (a pid, all, existing, new, ...), the flags it sets or clears on each,
 * what it returns, and when it raises badarg (CONFORMANCE.md section 2, "Process trace
 * flags and process specs"). */
#include <stdio.h>

#include "model.h"

const char *procspec_refusal(const Model *m, const Step *st)
{
    if (st->bad_flag)
        return "FLAGS-BADARG";
    for (int i = 0; i < st->nflags; i++)
        if (st->flags[i] == FL_CPU_TIMESTAMP && st->spec != SPEC_ALL)
            return "FLAGS-CPU-TIMESTAMP"; /* "Only allowed with Procs==all" */
    if (st->spec == SPEC_PID && !m->procs[model_proc(m, st->actor)].alive)
        return "CTL-TRACE";
    return NULL;
}

void procspec_attach(Model *m, int s, int p, FlagSet set, const char *origin)
{
    TraceState *ts = &m->procs[p].trace[s];
    if (enabled_probe(m, s, p) == ANS_REMOVE) { /* STATUS-REMOVE; the call still counts it */
        status_detach(m, s, p);
        return;
    }
    ts->flags |= set;
    ts->ts_cleared &= ~set;
    if (!ts->attached)
        ts->origin = origin;
    ts->attached = true;
}

/* Flags cleared on p; with none left the tracer is gone too (FLAGS-OFF-EMPTY). */
static void clear_flags(Model *m, int s, int p, FlagSet set)
{
    TraceState *ts = &m->procs[p].trace[s];
    ts->flags &= ~set;
    ts->ts_cleared |= set & FLAGS_TIMESTAMPS; /* TS-REMEMBERED */
    if (!ts->flags)
        status_detach(m, s, p);
}

static FlagSet step_flags(const Step *st)
{
    FlagSet set = 0;
    for (int i = 0; i < st->nflags; i++)
        set |= flags_expand(st->flags[i]);
    return set;
}

/* What a spec naming existing processes returns: the number of processes (and ports) it
 * matched on the node, which includes the harness's own: printed as a placeholder the live
 * runner checks against the node's counts (PROCS-SPEC-COUNT). */
static const char *count_placeholder(FlagSet set, bool ports_too)
{
    bool procs = flags_for_processes(set), ports = ports_too && flags_for_ports(set);
    return procs && ports ? "_ProcessesAndPorts" : procs ? "_Processes" : ports ? "_Ports" : "0";
}

const char *procspec_apply(Model *m, int s, const Step *st, Buf *rules)
{
    FlagSet set = step_flags(st) & ~FLAG_BIT(FL_CPU_TIMESTAMP);
    bool has_all = false;
    for (int i = 0; i < st->nflags; i++)
        has_all |= st->flags[i] == FL_ALL;
    if (has_all)
        buf_puts(rules, " FLAGS-ALL");
    if (step_flags(st) & FLAG_BIT(FL_CPU_TIMESTAMP)) {
        m->cpu_timestamp = st->on; /* TS-CPU: a node-wide flag, not a process's */
        buf_puts(rules, " TS-CPU");
    }
    if (!st->on)
        buf_puts(rules, " FLAGS-OFF");
    if (st->spec == SPEC_PID) {
        int p = model_proc(m, st->actor);
        if (st->on)
            procspec_attach(m, s, p, set, "CTL-TRACE");
        else
            clear_flags(m, s, p, set);
        return "1";
    }
    static const char *const spec_rules[] = {
        NULL, "PROCS-SPEC-ALL", "PROCS-SPEC-ALL", "PROCS-SPEC-EXISTING", "PROCS-SPEC-EXISTING",
        "PROCS-SPEC-NEW", "PROCS-SPEC-NEW",
    };
    const char *rule = spec_rules[st->spec];
    buf_printf(rules, " %s", rule);
    bool existing = st->spec != SPEC_NEW && st->spec != SPEC_NEW_PROCESSES;
    bool future = st->spec != SPEC_EXISTING && st->spec != SPEC_EXISTING_PROCESSES;
    if (future) { /* the port-only flags are for new ports, not new processes (seen live) */
        Session *ses = &m->sessions[s];
        FlagSet procs = flags_for_processes(set);
        ses->new_flags = st->on ? ses->new_flags | procs : ses->new_flags & ~procs;
    }
    if (!existing)
        return "0"; /* PROCS-SPEC-NEW: "If Procs is new, the return value is 0" */
    /* a process is matched when some flag applies to processes (PROCS-SPEC-COUNT) */
    for (int p = 0; p < m->nprocs && flags_for_processes(set); p++) {
        if (!m->procs[p].alive)
            continue;
        if (st->on)
            procspec_attach(m, s, p, set, rule);
        else
            clear_flags(m, s, p, set);
    }
    buf_puts(rules, " PROCS-SPEC-COUNT");
    /* all and existing name ports as well; processes and existing_processes do not */
    return count_placeholder(step_flags(st), st->spec == SPEC_ALL || st->spec == SPEC_EXISTING);
}

/* The first live process with a flag model v1 cannot follow, or -1. */
static int unmodelled_party(const Model *m, FlagSet *bad)
{
    for (int p = 0; p < m->nprocs; p++) {
        if (!m->procs[p].alive)
            continue;
        for (int s = 0; s < m->nsessions; s++) {
            *bad = flags_unmodelled(m->procs[p].trace[s].flags);
            if (*bad)
                return p;
        }
    }
    return -1;
}

bool procspec_check_modelled(Model *m, const Step *st)
{
    FlagSet bad;
    int p = unmodelled_party(m, &bad);
    if (p < 0)
        return true;
    Flag f = FL_SEND;
    while (!(bad & FLAG_BIT(f)))
        f++;
    char what[160];
    snprintf(what, sizeof what, "a step while <%s> has trace flag '%s' is", m->procs[p].name, flag_name(f));
    return model_unsupported(m, st->line, st->col, what);
}
