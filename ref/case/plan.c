/* plan.c - plan output for the runner and meta output for tooling. */
#include <string.h>

#include "plan.h"

#include "dispatch.h"
#include "steps.h"
#include "steptext.h"

static void atom(Buf *out, const char *name) { term_print_atom(out, name); }

/* The call of a call step: "M, F, Args". */
static void call_fields(Buf *out, const Step *st)
{
    atom(out, st->module);
    buf_puts(out, ", ");
    atom(out, st->fn);
    buf_puts(out, ", ");
    term_print(out, st->args, PRINT_PLAN);
}

/* A session step's handle: sa, {weak, sa} or {weak, legacy}. */
static void session_ref(Buf *out, const Scenario *sc, const Step *st)
{
    if (st->session_term) { /* {term, T}: the term itself is passed (SESSION-NOT-A-HANDLE) */
        buf_puts(out, "{term, ");
        term_print(out, st->session_term, PRINT_PLAN);
        buf_puts(out, "}");
        return;
    }
    const char *name = st->session == SESSION_LEGACY ? "legacy" : sc->sessions[st->session].name;
    buf_printf(out, st->weak ? "{weak, %s}" : "%s", name);
}

/* {Op, ...} of a `{session, {Op, ...}}` step: cases/README.md "The plan". */
static void session_step(Buf *out, const Scenario *sc, const Step *st)
{
    buf_printf(out, "{%s, ", session_op_plan_name(st->sop));
    if (st->sop == SO_APPLY) { /* {call, Ref | none, Fn, Args} */
        if (st->session == SESSION_NONE)
            buf_puts(out, "none");
        else
            session_ref(out, sc, st);
        buf_printf(out, ", %s, ", st->fn);
        term_print(out, st->args, PRINT_PLAN);
        buf_puts(out, "}");
        return;
    }
    if (st->sop == SO_SESSION_INFO) {
        term_print(out, st->term, PRINT_PLAN);
        buf_puts(out, "}");
        return;
    }
    session_ref(out, sc, st);
    switch (st->sop) {
    case SO_CREATE:
        buf_puts(out, ", ");
        term_print(out, st->sargs, PRINT_PLAN);
        break;
    case SO_PROCESS: /* a spec: {spec, process | port, Atom}, the call and its argument */
        if (st->spec == SPEC_PID)
            buf_puts(out, ", {'$tcs_pid', ");
        else
            buf_printf(out, ", {spec, %s, ", spec_is_ports(st->spec) ? "port" : "process");
        atom(out, st->actor);
        buf_puts(out, "}, ");
        if (st->how) /* a How that is no boolean (SESSION-BAD-HOW) */
            term_print(out, st->how, PRINT_PLAN);
        else
            buf_puts(out, st->on ? "true" : "false");
        buf_puts(out, ", ");
        term_print(out, st->sargs, PRINT_PLAN);
        break;
    case SO_FUNCTION:
        buf_puts(out, ", ");
        steptext_pattern_target(out, st);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        buf_puts(out, ", ");
        term_print(out, st->sargs, PRINT_PLAN);
        break;
    case SO_INFO: /* the target or event, and the item */
    case SO_SEND: /* the match spec, and the options */
    case SO_RECV:
    case SO_SYSTEM: /* the event, and its value */
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        buf_puts(out, ", ");
        term_print(out, st->sargs, PRINT_PLAN);
        break;
    case SO_DELIVERED:
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    default: /* destroy, drop: the handle only */
        break;
    }
    buf_puts(out, "}");
}

static void step_body(Buf *out, const Scenario *sc, const Step *st)
{
    if (st->kind == ST_TOGETHER || st->kind == ST_TOGETHER_END) { /* {together}, {together_end} */
        buf_printf(out, "{%s}", step_plan_name(st->kind));
        return;
    }
    /* a trace step naming a process spec is {trace_spec, Spec, How, Flags}, with `rounds N
     * [within MS]` {trace_spec, Spec, How, Flags, N, MS} (MS 0: no time bound; PROCS-SPEC-ROUNDS) */
    buf_printf(out, "{%s, ", st->kind == ST_TRACE && st->spec != SPEC_PID ? "trace_spec" : step_plan_name(st->kind));
    switch (st->kind) {
    case ST_TRACE:
        atom(out, st->actor);
        buf_printf(out, ", %s, [", st->on ? "true" : "false");
        for (int i = 0; i < st->nflags; i++) {
            if (i)
                buf_puts(out, ", ");
            term_print(out, st->flag_terms[i], PRINT_PLAN);
        }
        buf_puts(out, "]");
        if (st->rounds > 1)
            buf_printf(out, ", %lld, %lld", st->rounds, st->rounds_ms);
        break;
    case ST_INFO: /* a process, new, or a function {M,F,A} */
        if (st->term)
            term_print(out, st->term, PRINT_PLAN);
        else
            atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->item);
        break;
    case ST_TRACER_EXIT:
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_KILL_ALL: /* {kill_all, [tracer, P...], Rounds} */
        term_print(out, st->args, PRINT_PLAN);
        buf_printf(out, ", %lld", st->rounds);
        break;
    case ST_TRACER_UNLOAD:
    case ST_TRACER_RELOAD:
        buf_puts(out, "recorder");
        break;
    case ST_MODULE_UNLOAD:
    case ST_MODULE_LOAD:
        atom(out, st->module);
        break;
    case ST_SYSTEM_MONITOR: /* legacy: erlang:system_monitor/0; undefined: /1; else /2 */
        if (!st->other) {
            buf_puts(out, "legacy");
        } else if (!st->term) {
            atom(out, st->other);
        } else {
            atom(out, st->other);
            buf_puts(out, ", ");
            atom(out, st->item);
            buf_puts(out, ", ");
            term_print(out, st->term, PRINT_PLAN);
        }
        break;
    case ST_RELATION: /* two reading names and the operator between them */
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->item);
        buf_puts(out, ", ");
        atom(out, st->other);
        break;
    case ST_PROC_PATTERN: /* {proc_pattern, P, Target, MS, Opts} */
        atom(out, st->actor);
        buf_puts(out, ", ");
        /* fall through */
    case ST_PATTERN: /* {pattern, Target, MS, Opts}, or {pattern, Target, restart, Opts, Rounds} */
        steptext_pattern_target(out, st);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        buf_puts(out, ", [");
        for (int i = 0; i < st->nopts; i++) {
            if (i)
                buf_puts(out, ", ");
            term_print(out, st->opt_terms[i], PRINT_PLAN);
        }
        buf_puts(out, "]");
        if (st->rounds > 1)
            buf_printf(out, ", %lld", st->rounds);
        break;
    case ST_SEND:
    case ST_KILL:
    case ST_PORT_COMMAND:
    case ST_PORT_SEND:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->other);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_WAIT: /* {wait, A, Ms, B, T} */
        atom(out, st->actor);
        buf_printf(out, ", %lld, ", st->timeout);
        atom(out, st->other);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_TIMER: /* {start_timer, A, Ms} */
        atom(out, st->actor);
        buf_printf(out, ", %lld", st->timeout);
        break;
    case ST_RECV:
        atom(out, st->actor);
        if (st->term) { /* {recv, P, {match, T}}: a selective receive */
            buf_puts(out, ", {match, ");
            term_print(out, st->term, PRINT_PLAN);
            buf_puts(out, "}");
        } else if (st->has_timeout)
            buf_printf(out, ", %lld", st->timeout);
        else
            buf_puts(out, ", infinity");
        break;
    case ST_TRACER_RELOAD_BUSY: /* {tracer_reload_busy, recorder, A, {M, F, Args}} */
        buf_puts(out, "recorder, ");
        atom(out, st->actor);
        buf_puts(out, ", {");
        call_fields(out, st);
        buf_puts(out, "}");
        break;
    case ST_LOOP: /* {loop, A, {M, F, Args}} */
        atom(out, st->actor);
        buf_puts(out, ", {");
        call_fields(out, st);
        buf_puts(out, "}");
        break;
    case ST_CALL: /* {call, A, M, F, Args}, or {call, A, M, F, Args, direct | 'fun'} */
        atom(out, st->actor);
        buf_puts(out, ", ");
        call_fields(out, st);
        if (st->path != CALL_APPLY)
            buf_puts(out, st->path == CALL_DIRECT ? ", direct" : ", 'fun'");
        break;
    case ST_PORT_CONTROL: /* {port_control, P, X, busy | not_busy | {timer, N}} */
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->other);
        if (strcmp(st->item, "timer") == 0)
            buf_printf(out, ", {timer, %lld}", st->timeout);
        else
            buf_printf(out, ", %s", st->item);
        break;
    case ST_SPAWN:
    case ST_SPAWN_LINK:
    case ST_MONITOR:
    case ST_PROC_SUSPEND: /* {proc_suspend, P, Q} */
    case ST_PROC_RESUME:  /* {proc_resume, P, Q} */
    case ST_LINK:
    case ST_UNLINK:
    case ST_OPEN_PORT:
    case ST_PORT_CLOSE:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->other);
        if (st->driver) /* {open_port, P, X, driver}: the suite's linked-in driver */
            buf_puts(out, ", driver");
        if (st->on_peer) /* {spawn, P, R, peer}: R on the peer node */
            buf_printf(out, ", %s", step_plan_name(ST_PEER));
        if (st->term) { /* spawn, spawn_link: the entry point {M,F,Args} */
            buf_puts(out, ", ");
            term_print(out, st->term, PRINT_PLAN);
        }
        if (st->max_heap_size) /* and its max_heap_size */
            buf_printf(out, ", %lld", st->max_heap_size);
        if (st->spawn_opts) { /* a scenario process spawned with spawn_opt/4 */
            buf_puts(out, ", {options, ");
            term_print(out, st->spawn_opts, PRINT_PLAN);
            buf_puts(out, "}");
        }
        break;
    case ST_REGISTER:
    case ST_UNREGISTER:
    case ST_EXIT:
    case ST_TRAP_EXIT:
    case ST_GC:
    case ST_SEQ_PRINT:
        atom(out, st->actor);
        buf_puts(out, ", ");
        if (st->kind == ST_SEQ_PRINT && st->args) { /* print/2: {seq_print, P, Label, T} */
            term_print(out, st->args, PRINT_PLAN);
            buf_puts(out, ", ");
        }
        term_print(out, st->term, PRINT_PLAN);
        if (st->kind == ST_REGISTER && st->other) {
            buf_puts(out, ", ");
            atom(out, st->other);
        }
        break;
    case ST_MS_TEST: /* {ms_test, A, Args, MS} */
        atom(out, st->actor);
        buf_puts(out, ", ");
        term_print(out, st->args, PRINT_PLAN);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_SEQ_TOKEN:
    case ST_SEND_NAME:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->fn);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_SEQ_RESET:
    case ST_SUSPEND: /* {suspend, A}, or {suspend, A, Opts} */
        atom(out, st->actor);
        if (st->term) {
            buf_puts(out, ", ");
            term_print(out, st->term, PRINT_PLAN);
        }
        break;
    case ST_PEER:    /* {peer, R} */
    case ST_PEER_SEQ_TRACER: /* {peer_seq_tracer, T} */
    case ST_RESUME:  /* {resume, A} */
    case ST_CANCEL_TIMER: /* {cancel_timer, A} */
    case ST_STATUS:  /* {status, A} */
    case ST_IDLE: /* {idle, A} */
        atom(out, st->actor);
        break;
    case ST_SEQ_TRACER: /* the system seq tracer is the scenario's tracer */
        buf_puts(out, "tracer");
        break;
    case ST_TRACER_PORT: /* {port_tracer, Name}: the name the port gets among the case's names */
        buf_puts(out, "tracer_port");
        break;
    case ST_SESSION:
        session_step(out, sc, st);
        break;
    case ST_TOGETHER:
    case ST_TOGETHER_END:
        break;
    }
    buf_puts(out, "}");
}

/* KIND, [Callbacks], [Answers] of a tracer declaration. */
static void tracer_entry(Buf *out, const TracerDecl *t)
{
    buf_printf(out, "%s, [", tracer_kind_name(t->kind));
    int n = 0;
    for (int i = 0; i < CALLBACK_COUNT; i++)
        if (t->callbacks & (1u << i))
            buf_printf(out, "%s%s", n++ ? ", " : "", callback_name(i));
    buf_puts(out, "], [");
    if (t->kind == TRACER_RECORDER) {
        for (size_t i = 0; i < t->nanswers; i++) {
            buf_puts(out, "{");
            atom(out, t->answers[i].tag);
            buf_printf(out, ", %s}, ", answer_name(t->answers[i].answer));
        }
        buf_printf(out, "{default, %s}", answer_name(t->default_answer));
    }
    buf_puts(out, "]");
}

void plan_print_step_lines(Buf *out)
{
    /* what a node that crashes during a step printed before it (C-92's range, PROTOCOLS.md) */
    buf_puts(out, "{step_lines, true}.\n");
}

void plan_print(Buf *out, const Scenario *sc)
{
    buf_printf(out, "{case_id, <<\"%s\">>}.\n", sc->id); /* ids are [a-z][a-zA-Z0-9_]* */
    buf_puts(out, "{tracer, ");
    tracer_entry(out, &sc->tracer);
    buf_puts(out, "}.\n");
    if (sc->tracer.match_binaries) /* <tracer> matches call messages' binaries (CALL-MATCH-CONTEXT-READ) */
        buf_puts(out, "{match_binaries, true}.\n");
    if (sc->tracer.state) { /* the tracer state the harness passes (STATE-ANY-TERM) */
        buf_puts(out, "{tracer_state, ");
        term_print(out, sc->tracer.state, PRINT_PLAN);
        buf_puts(out, "}.\n");
    }
    if (sc->nsessions) {
        buf_puts(out, "{sessions, [");
        for (size_t i = 0; i < sc->nsessions; i++) {
            buf_printf(out, "%s{", i ? ", " : "");
            atom(out, sc->sessions[i].name);
            buf_puts(out, ", ");
            tracer_entry(out, &sc->sessions[i].tracer);
            buf_puts(out, "}");
        }
        buf_puts(out, "]}.\n");
    }
    buf_puts(out, "{processes, [");
    for (size_t i = 0; i < sc->nprocs; i++) {
        if (i)
            buf_puts(out, ", ");
        atom(out, sc->procs[i]);
    }
    buf_puts(out, "]}.\n");
    for (size_t i = 0; i < sc->nsteps; i++) {
        const Step *st = &sc->steps[i];
        buf_printf(out, "{step, %zu, ", i + 1);
        if (st->reading) { /* a named reading: {reading, Name, Step} (CALL-COUNTERS-RELATION) */
            buf_puts(out, "{reading, ");
            atom(out, st->reading);
            buf_puts(out, ", ");
        }
        step_body(out, sc, st);
        buf_puts(out, st->reading ? "}}.\n" : "}.\n");
    }
}

static void json_string(Buf *out, const char *s)
{
    buf_puts(out, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            buf_printf(out, "\\%c", *c);
        else if (*c < 0x20)
            buf_printf(out, "\\u%04x", *c);
        else
            buf_putn(out, (const char *)c, 1);
    }
    buf_puts(out, "\"");
}

static void json_strings(Buf *out, const char *const *v, size_t n)
{
    buf_puts(out, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_puts(out, ",");
        json_string(out, v[i]);
    }
    buf_puts(out, "]");
}

/* "tracer":KIND,"callbacks":[...] */
static void tracer_json(Buf *out, const TracerDecl *t)
{
    buf_printf(out, "\"tracer\":\"%s\",\"callbacks\":[", tracer_kind_name(t->kind));
    int n = 0;
    for (int i = 0; i < CALLBACK_COUNT; i++) /* index order is sorted name order */
        if (t->callbacks & (1u << i))
            buf_printf(out, "%s\"%s\"", n++ ? "," : "", callback_name(i));
    buf_puts(out, "]");
}

void meta_print(Buf *out, const Scenario *sc)
{
    buf_puts(out, "{\"id\":");
    json_string(out, sc->id);
    buf_puts(out, ",\"rules\":");
    json_strings(out, sc->rules, sc->nrules);
    buf_puts(out, ",\"desc\":");
    json_string(out, sc->desc);
    buf_printf(out, ",\"otp\":%lld,\"features\":", sc->otp);
    json_strings(out, sc->features, sc->nfeatures);
    buf_printf(out, ",\"tries\":%lld,", sc->tries > 1 ? sc->tries : 1);
    tracer_json(out, &sc->tracer);
    buf_puts(out, ",\"sessions\":[");
    for (size_t i = 0; i < sc->nsessions; i++) {
        buf_printf(out, "%s{\"name\":", i ? "," : "");
        json_string(out, sc->sessions[i].name);
        buf_puts(out, ",");
        tracer_json(out, &sc->sessions[i].tracer);
        buf_puts(out, "}");
    }
    buf_puts(out, "]");
    for (size_t i = 0; i < sc->nsteps; i++) /* the peer node's seq tracer, whose messages are msg lines */
        if (sc->steps[i].kind == ST_PEER_SEQ_TRACER) {
            buf_puts(out, ",\"peer_seq_tracer\":");
            json_string(out, sc->steps[i].actor);
        }
    buf_puts(out, "}\n");
}
