/* procs.c - spawn, link, register and exit (CONFORMANCE.md section 2, EV-SPAWN, EV-LINK,
 * EV-REGISTER and EV-EXIT rules). */
#include <string.h>

#include "model.h"

bool procs_spawn(Model *m, int p, const Step *st)
{
    int q = model_add_proc(m, st->other);
    if (q < 0)
        return model_unsupported(m, st->line, st->other_col, "more processes than MAX_PROCS are");
    Term *a[1] = {term_atom(m->a, st->other)};
    Term *mfa = term_tuple3(m->a, term_atom(m->a, "tcs_puppet"), term_atom(m->a, "run"), term_list(m->a, 1, a));
    tracepoint_event(m, p, "spawn", model_pid(m, q), mfa, "EV-SPAWN");
    return true;
}

static int link_pos(const Proc *p, int q)
{
    for (int i = 0; i < p->nlinks; i++)
        if (p->links[i] == q)
            return i;
    return -1;
}

static void link_remove(Proc *p, int q)
{
    int i = link_pos(p, q);
    if (i < 0)
        return;
    memmove(p->links + i, p->links + i + 1, (size_t)(p->nlinks - i - 1) * sizeof(int));
    p->nlinks--;
}

void procs_set_link(Model *m, int p, int q, bool linked)
{
    if (linked) {
        m->procs[p].links[m->procs[p].nlinks++] = q;
        m->procs[q].links[m->procs[q].nlinks++] = p;
    } else {
        link_remove(&m->procs[p], q);
        link_remove(&m->procs[q], p);
    }
}

bool procs_link(Model *m, int p, const Step *st, bool link)
{
    int q = model_proc(m, st->other);
    Proc *pp = &m->procs[p], *qp = &m->procs[q];
    if (!qp->alive)
        return model_unsupported(m, st->line, st->other_col, link ? "linking a dead process is" : "unlinking a dead process is");
    bool linked = link_pos(pp, q) >= 0;
    if (link && linked)
        return model_unsupported(m, st->line, st->col, "linking an already linked process is");
    if (!link && !linked)
        return model_unsupported(m, st->line, st->col, "unlinking a process that is not linked is");
    procs_set_link(m, p, q, link);
    if (qp->is_port)
        return ports_link(m, p, q, link);
    tracepoint_event(m, p, link ? "link" : "unlink", model_pid(m, q), NULL, "EV-LINK");
    tracepoint_event(m, q, link ? "getting_linked" : "getting_unlinked", model_pid(m, p), NULL, "EV-LINK");
    return true;
}

/* The port holding the registered name, or -1. */
static int port_named(const Model *m, const char *name)
{
    for (int i = 0; i < m->nprocs; i++)
        if (m->procs[i].is_port && m->procs[i].regname && strcmp(m->procs[i].regname, name) == 0)
            return i;
    return -1;
}

bool procs_register(Model *m, int p, const Step *st, bool reg)
{
    /* PORTS-REGISTER: `P register N X` names port X; any process may unregister a port's name */
    int named = reg ? (st->other ? model_proc(m, st->other) : p) : port_named(m, st->term->u.name);
    if (named < 0)
        named = p;
    Proc *pp = &m->procs[named];
    const char *name = st->term->u.name;
    const char *rules = pp->is_port ? "EV-REGISTER PORTS-REGISTER" : "EV-REGISTER";
    if (reg && !pp->alive)
        return model_unsupported(m, st->line, st->other_col, "registering a closed port is");
    if (reg) {
        if (pp->regname)
            return model_unsupported(m, st->line, st->term_col, "registering a process that already has a name is");
        for (int i = 0; i < m->nprocs; i++)
            if (m->procs[i].regname && strcmp(m->procs[i].regname, name) == 0)
                return model_unsupported(m, st->line, st->term_col, "registering a name already taken is");
        pp->regname = name;
        tracepoint_event(m, named, "register", st->term, NULL, rules);
    } else {
        if (!pp->regname || strcmp(pp->regname, name) != 0)
            return model_unsupported(m, st->line, st->term_col, "unregistering a name the process does not own is");
        pp->regname = NULL;
        tracepoint_event(m, named, "unregister", st->term, NULL, rules);
    }
    return true;
}

/* Process p terminates with reason: exit, then unregister; then each linked
 * process dies too with the same reason (puppets do not trap exits), or, when
 * the reason is normal, survives and gets unlinked from p; a linked port gets
 * the exit signal (ports.c). */
void procs_terminate(Model *m, int p, const Term *reason, bool by_link)
{
    Proc *pp = &m->procs[p];
    if (pp->blocked) /* RUN-WAKE: a process killed in a receive is scheduled in to exit */
        running_wake(m, p);
    else if (by_link) /* RUN-KILLED: killed while it runs (in the gate): scheduled in exiting */
        running_killed(m, p);
    tracepoint_event(m, p, "exit", reason, NULL, by_link ? "EV-EXIT EV-EXIT-LINKED" : "EV-EXIT");
    if (pp->regname) {
        tracepoint_event(m, p, "unregister", term_atom(m->a, pp->regname), NULL, "EV-REGISTER EV-EXIT-UNREGISTER");
        pp->regname = NULL;
    }
    running_exited(m, p);
    pp->alive = false;
    pp->mlen = 0;
    int links[MAX_PROCS];
    int n = pp->nlinks;
    memcpy(links, pp->links, (size_t)n * sizeof(int));
    pp->nlinks = 0;
    for (int i = 0; i < n; i++)
        link_remove(&m->procs[links[i]], p);
    for (int i = 0; i < n; i++) {
        if (!m->procs[links[i]].alive)
            continue;
        if (m->procs[links[i]].is_port)
            ports_exit_signal(m, links[i], p, reason);
        else if (term_is_atom(reason, "normal"))
            tracepoint_event(m, links[i], "getting_unlinked", model_id(m, p), NULL, "EV-LINK EV-EXIT-UNLINKED");
        else
            procs_terminate(m, links[i], reason, true);
    }
}

bool procs_exit(Model *m, int p, const Step *st)
{
    procs_terminate(m, p, st->term, false);
    return true;
}
