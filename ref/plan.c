/* plan.c - plan output for the runner and meta output for tooling. */
#include "plan.h"

#include "dispatch.h"

static void atom(Buf *out, const char *name) { term_print_atom(out, name); }

void pattern_target(Buf *out, const Step *st)
{
    if (!st->module) {
        atom(out, st->event ? st->event : "on_load"); /* send, 'receive' or on_load */
        return;
    }
    buf_puts(out, "{");
    atom(out, st->module);
    buf_puts(out, ",");
    atom(out, st->fn);
    if (st->arity == ANY_ARITY)
        buf_puts(out, ",'_'}");
    else
        buf_printf(out, ",%lld}", st->arity);
}

static void step_body(Buf *out, const Step *st)
{
    static const char *const kinds[] = {"trace", "pattern", "send", "recv", "call", "spawn",
                                        "link", "unlink", "register", "unregister", "exit",
                                        "open_port", "port_command", "port_send", "port_close", "gc",
                                        "seq_tracer", "seq_token", "seq_print", "seq_reset"};
    buf_printf(out, "{%s, ", kinds[st->kind]);
    switch (st->kind) {
    case ST_TRACE:
        atom(out, st->actor);
        buf_printf(out, ", %s, [", st->on ? "true" : "false");
        for (int i = 0; i < st->nflags; i++) {
            if (i)
                buf_puts(out, ", ");
            atom(out, flag_name(st->flags[i]));
        }
        buf_puts(out, "]");
        break;
    case ST_PATTERN:
        pattern_target(out, st);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        buf_puts(out, ", [");
        for (int i = 0; i < st->nopts; i++) {
            if (i)
                buf_puts(out, ", ");
            atom(out, st->opts[i]);
        }
        buf_puts(out, "]");
        break;
    case ST_SEND:
    case ST_PORT_COMMAND:
    case ST_PORT_SEND:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->other);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_RECV:
        atom(out, st->actor);
        if (st->has_timeout)
            buf_printf(out, ", %lld", st->timeout);
        else
            buf_puts(out, ", infinity");
        break;
    case ST_CALL:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->module);
        buf_puts(out, ", ");
        atom(out, st->fn);
        buf_puts(out, ", ");
        term_print(out, st->args, PRINT_PLAN);
        break;
    case ST_SPAWN:
    case ST_LINK:
    case ST_UNLINK:
    case ST_OPEN_PORT:
    case ST_PORT_CLOSE:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->other);
        break;
    case ST_REGISTER:
    case ST_UNREGISTER:
    case ST_EXIT:
    case ST_GC:
    case ST_SEQ_PRINT:
        atom(out, st->actor);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        if (st->kind == ST_REGISTER && st->other) {
            buf_puts(out, ", ");
            atom(out, st->other);
        }
        break;
    case ST_SEQ_TOKEN:
        atom(out, st->actor);
        buf_puts(out, ", ");
        atom(out, st->fn);
        buf_puts(out, ", ");
        term_print(out, st->term, PRINT_PLAN);
        break;
    case ST_SEQ_RESET:
        atom(out, st->actor);
        break;
    case ST_SEQ_TRACER: /* the system seq tracer is the scenario's tracer */
        buf_puts(out, "tracer");
        break;
    }
    buf_puts(out, "}");
}

void plan_print(Buf *out, const Scenario *sc)
{
    buf_printf(out, "{case_id, <<\"%s\">>}.\n", sc->id); /* ids are [a-z][a-zA-Z0-9_]* */
    if (sc->tracer.kind == TRACER_ERL_MSG) {
        buf_puts(out, "{tracer, erl_msg_tracer, [], []}.\n");
    } else {
        buf_puts(out, "{tracer, recorder, [");
        int n = 0;
        for (int i = 0; i < CALLBACK_COUNT; i++)
            if (sc->tracer.callbacks & (1u << i))
                buf_printf(out, "%s%s", n++ ? ", " : "", callback_name(i));
        buf_puts(out, "], [");
        for (size_t i = 0; i < sc->tracer.nanswers; i++) {
            buf_puts(out, "{");
            atom(out, sc->tracer.answers[i].tag);
            buf_printf(out, ", %s}, ", answer_name(sc->tracer.answers[i].answer));
        }
        buf_printf(out, "{default, %s}]}.\n", answer_name(sc->tracer.default_answer));
    }
    buf_puts(out, "{processes, [");
    for (size_t i = 0; i < sc->nprocs; i++) {
        if (i)
            buf_puts(out, ", ");
        atom(out, sc->procs[i]);
    }
    buf_puts(out, "]}.\n");
    for (size_t i = 0; i < sc->nsteps; i++) {
        buf_printf(out, "{step, %zu, ", i + 1);
        step_body(out, &sc->steps[i]);
        buf_puts(out, "}.\n");
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
    buf_printf(out, ",\"tracer\":\"%s\",\"callbacks\":[",
               sc->tracer.kind == TRACER_ERL_MSG ? "erl_msg_tracer" : "recorder");
    int n = 0;
    for (int i = 0; i < CALLBACK_COUNT; i++) /* index order is sorted name order */
        if (sc->tracer.callbacks & (1u << i))
            buf_printf(out, "%s\"%s\"", n++ ? "," : "", callback_name(i));
    buf_puts(out, "]}\n");
}
