/* model.c - simulation state: processes and sessions, and what one asks of them. */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "order.h"

int model_proc(const Model *m, const char *name)
{
    return strmap_get(&m->proc_index, name);
}

int model_add_proc(Model *m, const char *name)
{
    m->procs = arena_grow(m->a, m->procs, (size_t)m->nprocs, &m->procs_cap, sizeof *m->procs);
    Proc *p = &m->procs[m->nprocs];
    memset(p, 0, sizeof *p);
    p->trace = arena_alloc(m->a, (size_t)m->nsessions * sizeof *p->trace);
    p->name = name;
    p->alive = true;
    strmap_add(&m->proc_index, m->a, name, m->nprocs);
    return m->nprocs++;
}

void model_add_link(Model *m, Proc *p, int q)
{
    p->links = arena_grow(m->a, p->links, (size_t)p->nlinks, &p->links_cap, sizeof *p->links);
    p->links[p->nlinks++] = q;
}

int *model_take_links(Proc *p, int *n)
{
    int *links = p->links;
    *n = p->nlinks;
    p->links = NULL;
    p->nlinks = 0;
    p->links_cap = 0;
    return links;
}

Term *model_pid(Model *m, int p)
{
    Proc *pr = &m->procs[p];
    if (!pr->pid)
        pr->pid = term_pid(m->a, pr->name);
    return pr->pid;
}

Term *model_id(Model *m, int p)
{
    return m->procs[p].is_port ? term_port(m->a, m->procs[p].name) : model_pid(m, p);
}

void model_print_id(Buf *out, const Model *m, int p)
{
    buf_printf(out, m->procs[p].is_port ? "<port:%s>" : "<%s>", m->procs[p].name);
}

bool model_category(const Model *m, int p, const char *tag, Category *out)
{
    return m->procs[p].is_port ? tag_category_port(tag, out) : tag_category(tag, out);
}

bool model_dispatch_category(const Model *m, int p, const char *tag, Category *out)
{
    if (!model_category(m, p, tag, out))
        return false;
    /* erl_port_task.c erts_port_task_execute, ERTS_PORT_TASK_TIMEOUT: trace_port(pp, am_receive,
     * am_timeout), whose erl_trace.c trace_port asks TRACE_FUN_E_PORTS and calls TRACE_FUN_T_PORTS,
     * where a port's other receives (trace_port_receive) use E_RECEIVE and T_RECEIVE */
    if (m->procs[p].timer_firing && strcmp(tag, "receive") == 0)
        *out = CAT_PORTS;
    return true;
}

bool model_unsupported(Model *m, int line, int col, const char *what)
{
    m->err->line = line;
    m->err->col = col;
    snprintf(m->err->msg, sizeof m->err->msg, "%s not supported by model v1", what);
    return false;
}

bool model_init(Model *m, Arena *a, const Scenario *sc, Stream *out, Err *err)
{
    m->a = a;
    m->sc = sc;
    m->out = out;
    m->err = err;
    m->sessions = arena_alloc(a, (1 + sc->nsessions) * sizeof *m->sessions);
    m->sessions[LEGACY_SESSION].tracer = &sc->tracer;
    m->sessions[LEGACY_SESSION].state = "tracer";
    m->sessions[LEGACY_SESSION].life = LIFE_ALIVE; /* SESSION-LEGACY: always there */
    m->nsessions = 1;
    m->sessions[LEGACY_SESSION].state_term = sc->tracer.state ? sc->tracer.state : term_pid(a, "tracer");
    /* the runner loads them before the first step; tcs_late is loaded by its first call
     * (CALL-PATTERN-ON-LOAD) */
    m->loaded[MOD_TARGET] = m->loaded[MOD_NIF] = m->loaded[MOD_SHAPES] = true;
    m->loaded[MOD_ERLANG] = m->loaded[MOD_LISTS] = true; /* preloaded, and loaded at boot (LIB-TARGET) */
    for (size_t i = 0; i < sc->nsessions; i++) {
        /* SESSION-UNDEFINED-TRACER: the messages go to the process the trace steps name,
         * <tracer>, the legacy tracer process (the parser allows no other) */
        bool undefined = sc->sessions[i].tracer.kind == TRACER_UNDEFINED;
        m->sessions[m->nsessions++] = (Session){
            .tracer = undefined ? &sc->tracer : &sc->sessions[i].tracer, .state = sc->sessions[i].name,
            .state_term = term_pid(a, undefined ? "tracer" : sc->sessions[i].name), .tracer_undefined = undefined};
    }
    for (size_t i = 0; i < sc->nprocs; i++) /* after the sessions: a Proc has a trace state per session */
        model_add_proc(m, sc->procs[i]);
    return true;
}

bool model_attached(const TraceState *ts) { return ts->attached && ts->flags != 0; }

void model_detach(TraceState *ts)
{
    ts->attached = false;
    ts->flags = 0;
    ts->ts_cleared = 0;
    ts->origin = NULL;
    ts->cleared_by = NULL;
    ts->state = NULL;
}

bool model_waits_in_gate(const Proc *p) { return p->alive && !p->is_port && !p->blocked && !p->suspended; }

bool model_tracer_gone(Tracer t) { return t.decl->kind == TRACER_ERL_MSG && t.state_dead; }

bool model_read_new_defaults(Model *m, int s, bool ports)
{
    Session *ses = &m->sessions[s];
    /* erl_trace.c get_new_p_tracing: every read of a session's defaults probes their tracer
     * for trace_status and, on any answer but trace, clears the flags and the tracer */
    bool had = ports ? model_attached(&ses->new_ports) : ses->new_flags != 0;
    if (!had || !model_tracer_gone((Tracer){ses->tracer, ses->state_term, ses->state_dead}))
        return false;
    if (ports)
        model_detach(&ses->new_ports);
    else
        ses->new_flags = 0;
    return true;
}

MessagePattern *model_message_pattern(Session *ses, bool send)
{
    return send ? &ses->send_pat : &ses->receive_pat;
}

bool model_module_patterned(const Model *m, FixtureModule mod)
{
    for (int s = 0; s < m->nsessions; s++)
        for (int fn = 0; fn < FIXTURE_FNS; fn++) {
            const Pattern *pat = &m->sessions[s].pats[fn];
            if (fixture_fn_info(fn)->module != mod)
                continue;
            if (pat->set || pat->meta)
                return true;
            for (int k = 0; k < COUNTERS; k++)
                if (pat->counters[k].state != COUNTER_OFF)
                    return true;
        }
    return false;
}

void model_clear_module_patterns(Model *m, FixtureModule mod)
{
    for (int s = 0; s < m->nsessions; s++)
        for (int fn = 0; fn < FIXTURE_FNS; fn++)
            if (fixture_fn_info(fn)->module == mod)
                m->sessions[s].pats[fn] = (Pattern){0};
}

void model_unload_module(Model *m, FixtureModule mod)
{
    m->loaded[mod] = false;
    m->old_code[mod] = false;
    model_clear_module_patterns(m, mod);
}

void model_load_module(Model *m, FixtureModule mod)
{
    m->loaded[mod] = true;
    m->loaded_once[mod] = true;
    for (int s = 0; s < m->nsessions; s++) {
        const Pattern *def = &m->sessions[s].on_load;
        for (int fn = 0; fn < FIXTURE_FNS; fn++) {
            const FixtureFnInfo *f = fixture_fn_info(fn);
            if (f->module != mod)
                continue;
            Pattern *pat = &m->sessions[s].pats[fn];
            Pattern before = *pat;
            if (def->set && (def->local || f->exported)) {
                pat->set = true;
                pat->local = def->local;
                pat->ms = def->ms;
            }
            pat->meta = def->meta;
            pat->meta_ms = def->meta_ms;
            for (int k = 0; k < COUNTERS; k++) /* counting from zero (CALL-COUNTERS-ON-LOAD) */
                pat->counters[k] = (Counter){def->counters[k].state, 0, NULL,
                                             def->counters[k].state == COUNTER_OFF ? 0 : ++m->counter_epochs, 0, false};
            order_note_pattern(m, pat, &before);
        }
    }
}
