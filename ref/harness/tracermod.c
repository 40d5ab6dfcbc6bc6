/* tracermod.c - a tracer named by the step, and the tracer module's life (TRACER-*). */
#include <string.h>

#include "control.h"
#include "enabled.h"
#include "stream.h"
#include "tracermod.h"

/* Modules the model knows are loaded on every node and have no tracer NIFs (TRACER-NOT-A-TRACER):
 * stdlib's lists, and the fixture the runner loads before the first step. */
static bool loaded_non_tracer(const char *module)
{
    return strcmp(module, "lists") == 0 || strcmp(module, "tcs_target") == 0;
}

/* Modules whose part in tracing the model does not describe: a fixture loaded by its first
 * call, the example tracer, the harness's own modules. */
static bool undescribed(const char *module)
{
    return strcmp(module, "tcs_late") == 0 || strcmp(module, "erl_msg_tracer") == 0 ||
           strcmp(module, "erl_tracer") == 0 || strncmp(module, "tcs_", 4) == 0;
}

static bool is_option(const Term *t, const char *key)
{
    return t->kind == TK_TUPLE && t->u.tuple.n > 0 && term_is_atom(t->u.tuple.el[0], key);
}

/* The option erlang.erl's lists:keyfind(tracer | meta, 1, Flags) finds: the first one written,
 * or the harness's own ({tracer, recorder, <tracer>}; `meta` stands for {meta, recorder,
 * <meta>}); NULL for none. Sets *module and *state when it is a {Key, Module, State}. */
static bool first_option(Model *m, const Step *st, bool meta, const char **module, const Term **state)
{
    *module = NULL;
    if (meta) {
        for (int i = 0; i < st->nopts; i++) {
            const Term *o = st->opt_terms[i];
            if (term_is_atom(o, "meta")) {
                *module = "recorder";
                *state = term_pid(m->a, "meta");
                return true;
            }
            if (is_option(o, "meta")) {
                if (o->u.tuple.n == 3 && o->u.tuple.el[1]->kind == TK_ATOM) {
                    *module = o->u.tuple.el[1]->u.name;
                    *state = o->u.tuple.el[2];
                }
                return true;
            }
        }
        return false;
    }
    if (!st->tracer_opt) {
        *module = st->on ? "recorder" : NULL;
        *state = m->sessions[LEGACY_SESSION].state_term;
        return st->on;
    }
    const Term *o = st->tracer_opt;
    if (o->u.tuple.n == 3 && o->u.tuple.el[1]->kind == TK_ATOM) {
        *module = o->u.tuple.el[1]->u.name;
        *state = o->u.tuple.el[2];
    }
    return true;
}

/* TRACER-LOAD-ON-DEMAND: erlang:trace/3 and erlang:trace_pattern/3 call Module:enabled(
 * trace_status, self(), State) for a module that is not loaded (C-121): the calling process in
 * the state's place, the state in the tracee's. The caller is the harness's process, no
 * scenario process, printed <?>. The call loads the recorder again, which answers as ever. */
static void load_on_demand(Model *m, const Term *state)
{
    Tracer t = enabled_session_tracer(m, LEGACY_SESSION);
    Buf body;
    buf_init(&body);
    buf_puts(&body, "enabled(trace_status, <?>, ");
    term_print(&body, state, PRINT_CANON);
    buf_printf(&body, ") -> %s", answer_name(enabled_answer(t, "trace_status")));
    stream_line(m->out, stream_class("trace_status"), buf_str(&body), "TRACER-LOAD-ON-DEMAND STATUS-PROBE");
    buf_free(&body);
    m->tracer_unloaded = false;
}

/* Whether o is {meta, <meta>} in a case whose tracer is a process: the harness's second tracer
 * state process as a meta tracer process of its own (CALL-META-PROCESS), which no step ends. */
static bool harness_meta_process(const Model *m, const Term *o)
{
    const Term *x = o->u.tuple.n == 2 ? o->u.tuple.el[1] : NULL;
    return x && x->kind == TK_PID && strcmp(x->u.name, "meta") == 0 && m->sc->tracer.kind == TRACER_PROCESS;
}

/* The verdict of erts on the options with key tracer (meta): every one must name a tracer;
 * *state is the one that does. */
static bool options_verdict(Model *m, const Step *st, bool meta, TracerVerdict *verdict, const Term **state,
                            Buf *rules)
{
    const char *key = meta ? "meta" : "tracer";
    int named = 0;
    int n = meta ? st->nopts : st->nflags;
    for (int i = 0; i < n; i++) {
        const Term *o = meta ? st->opt_terms[i] : st->flag_terms[i];
        if (!is_option(o, key))
            continue;
        bool recorder = o->u.tuple.n == 3 && term_is_atom(o->u.tuple.el[1], "recorder");
        if (meta && harness_meta_process(m, o)) { /* CALL-META-PROCESS: {meta, <meta>} */
            if (named++ && term_compare(*state, o->u.tuple.el[1]) != 0)
                return model_unsupported(m, st->line, st->col, "this tracer option is");
            *state = o->u.tuple.el[1];
            continue;
        }
        if (o->u.tuple.n == 2 && o->u.tuple.el[1]->kind == TK_PID)
            return model_unsupported(m, st->line, st->col, "a tracer process in erlang:trace/3 or "
                                     "erlang:trace_pattern/3 is");
        if (!recorder) { /* TRACER-OPTION-INVALID: no pid, port or tracer module */
            *verdict = TRACER_BADARG;
            buf_puts(rules, " TRACER-OPTION-INVALID");
            return true;
        }
        /* the same tracer named twice is that tracer (trace_SUITE's bad_flag/1, live on 25, 27
         * and 29); two different ones: which wins is in no document */
        bool again = named++ && term_compare(*state, o->u.tuple.el[2]) == 0;
        if (m->sc->tracer.kind != TRACER_RECORDER || (named > 1 && !again))
            return model_unsupported(m, st->line, st->col, "this tracer option is");
        *state = o->u.tuple.el[2];
    }
    if (named)
        buf_puts(rules, " TRACER-OPTION");
    return true;
}

bool tracermod_check(Model *m, const Step *st, bool meta, TracerVerdict *verdict, const Term **state,
                     Buf *rules)
{
    *verdict = TRACER_ACCEPTED;
    *state = NULL;
    const char *module;
    const Term *first_state;
    if (first_option(m, st, meta, &module, &first_state) && module) {
        if (undescribed(module))
            return model_unsupported(m, st->line, st->col, "this module as a tracer module is");
        if (strcmp(module, "recorder") == 0 && m->tracer_unloaded) {
            load_on_demand(m, first_state);
        } else if (strcmp(module, "recorder") != 0 && !loaded_non_tracer(module)) {
            *verdict = TRACER_UNDEF; /* TRACER-MODULE-UNDEF: any other module is none (C-120) */
            buf_puts(rules, " TRACER-MODULE-UNDEF");
            return true;
        }
    }
    return options_verdict(m, st, meta, verdict, state, rules);
}

bool tracermod_reload(Model *m, const Step *st)
{
    /* the recorder's on_load runs in a process the runtime spawns, which the defaults for new
     * processes would trace (./tcs fuzz --seed 20261125, group G2): a process no case describes */
    for (int s = 0; s < m->nsessions; s++)
        if (m->sessions[s].new_flags)
            return model_unsupported(m, st->line, st->col,
                                     "reloading the tracer module while new processes get trace flags is");
    /* TRACER-RELOAD-NOT-PURGED: the version the last reload made old is still there (only
     * `tracer unload` purges it): code:load_file/1 refuses, and nothing changes */
    if (m->tracer_old_code) {
        control_line(m, "code:load_file(recorder)", "-> {error,not_purged}", "TRACER-RELOAD-NOT-PURGED");
        return true;
    }
    /* a load makes the current version old only when there is one: after `tracer unload`
     * (purged, deleted) it loads just a current version, and the next reload is accepted
     * (TRACER-RELOAD-AFTER-UNLOAD; beam_bif_load.c, finish_loading_1: not_purged only when
     * the module has both current and old code) */
    control_line(m, "code:load_file(recorder)", "-> {module,recorder}",
                 m->tracer_unloaded ? "TRACER-RELOADED TRACER-RELOAD-AFTER-UNLOAD" : "TRACER-RELOADED");
    m->tracer_old_code = !m->tracer_unloaded;
    m->tracer_unloaded = false;
    return true;
}

void tracermod_settled(Model *m, int actor)
{
    if (!m->tracer_unloaded)
        return;
    /* the runner's settle pokes the gate: each puppet waiting in it returns to the emulator,
     * which finds its tracer module gone (C-158); one blocked in a receive or suspended on a
     * busy port is not woken (it lost its tracer at the unload already: TRACER-UNLOADED-PURGE),
     * but the step's actor was scheduled in to leave the gate, also when its step blocked it
     * (fuzz seed 27112026, 25, 27 and 29: `a recv` after `tracer unload`, C-158) */
    for (int p = 0; p < m->nprocs; p++)
        if ((p == actor || model_waits_in_gate(&m->procs[p])) && model_attached(&m->procs[p].trace[LEGACY_SESSION])) {
            control_decided(m, "TRACER-UNLOADED-SETTLE");
            model_detach(&m->procs[p].trace[LEGACY_SESSION]);
        }
}

/* TRACER-UNLOADED-PURGE: the last code:purge/1 of `tracer unload` removes the code code:delete/1
 * made old, so erts_code_purger asks every process to check its code (check_proc_code/4, a system
 * task each). A puppet waiting in the harness's gate runs a dirty NIF, and the dirty signal handler
 * checks for it; one blocked in a receive or suspended on a busy port is scheduled in to do it
 * itself, and erts asks a process's tracer at each schedule-in (erl_process.c trace_schedule_in):
 * the module is gone, so it loses the tracer there, silently (C-275). */
static void purge_schedules(Model *m)
{
    for (int p = 0; p < m->nprocs; p++) {
        Proc *pp = &m->procs[p];
        if (pp->alive && !pp->is_port && (pp->blocked || pp->suspended) && model_attached(&pp->trace[LEGACY_SESSION])) {
            control_decided(m, "TRACER-UNLOADED-PURGE");
            model_detach(&pp->trace[LEGACY_SESSION]);
        }
    }
}

bool tracermod_unload(Model *m, const Step *st)
{
    Session *ses = &m->sessions[LEGACY_SESSION];
    if (m->seq_tracer)
        return model_unsupported(m, st->line, st->col, "unloading the system seq tracer's module is");
    if (ses->new_flags || model_attached(&ses->new_ports))
        return model_unsupported(m, st->line, st->col, "unloading the tracer module that new processes get is");
    if (m->nsessions > 1) /* a session's recorder may be the same module */
        return model_unsupported(m, st->line, st->col, "unloading the tracer module in a case with sessions is");
    /* TRACER-UNLOADED: a tracee keeps its tracer until the runtime next asks it (an event, a
     * trace_status probe) while the module is gone: then it loses it (enabled_unloaded); a
     * meta tracer is silent from now on: its pattern stays, orphaned */
    for (int fn = 0; fn < TARGET_FNS; fn++)
        ses->pats[fn].meta_orphan |= ses->pats[fn].meta;
    /* code:purge/1, code:delete/1, code:purge/1 (as tracer_SUITE's purge/0): after a purge,
     * delete answers true, also for a module that is not loaded (seen live on 25, 27, 29) */
    control_line(m, "code:delete(recorder)", "-> true", "TRACER-UNLOADED");
    m->tracer_unloaded = true;
    m->tracer_old_code = false;
    purge_schedules(m);
    return true;
}
