/* model.c - simulation state: processes and sessions; runs the steps in file order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

int model_proc(const Model *m, const char *name)
{
    for (int i = 0; i < m->nprocs; i++)
        if (strcmp(m->procs[i].name, name) == 0)
            return i;
    return -1;
}

int model_add_proc(Model *m, const char *name)
{
    if (m->nprocs == MAX_PROCS)
        return -1;
    Proc *p = &m->procs[m->nprocs];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->alive = true;
    return m->nprocs++;
}

Term *model_pid(Model *m, int p) { return term_pid(m->a, m->procs[p].name); }

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

bool model_unsupported(Model *m, int line, int col, const char *what)
{
    m->err->line = line;
    m->err->col = col;
    snprintf(m->err->msg, sizeof m->err->msg, "%s not supported by model v1", what);
    return false;
}

bool model_run(Arena *a, const Scenario *sc, Stream *out, Err *err)
{
    Model *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->a = a;
    m->sc = sc;
    m->out = out;
    m->err = err;
    m->sessions[LEGACY_SESSION].tracer = &sc->tracer;
    m->sessions[LEGACY_SESSION].state = "tracer";
    m->sessions[LEGACY_SESSION].life = LIFE_ALIVE; /* SESSION-LEGACY: always there */
    m->nsessions = 1;
    m->loaded[MOD_TARGET] = true; /* the runner loads it before the first step; tcs_late is
                                   * loaded by its first call (CALL-PATTERN-ON-LOAD) */
    bool ok = true;
    /* the parser allows at most MAX_SESSIONS - 1 session declarations */
    for (size_t i = 0; i < sc->nsessions; i++)
        m->sessions[m->nsessions++] = (Session){.tracer = &sc->sessions[i].tracer, .state = sc->sessions[i].name};
    for (size_t i = 0; ok && i < sc->nprocs; i++)
        if (model_add_proc(m, sc->procs[i]) < 0)
            ok = model_unsupported(m, 1, 1, "more processes than MAX_PROCS are");
    for (size_t i = 0; ok && i < sc->nsteps; i++)
        ok = events_step(m, &sc->steps[i]);
    free(m);
    return ok;
}
