/* enabled.c - the enabled protocol: answers, trace_status probe, remove. */
#include <string.h>

#include "dispatch.h"
#include "model.h"

Answer enabled_answer(const Session *ses, const char *tag)
{
    const TracerDecl *t = ses->tracer;
    bool status = strcmp(tag, "trace_status") == 0;
    if (t->kind == TRACER_ERL_MSG && ses->state_dead) /* STATUS-DEAD-STATE: its state is gone */
        return status ? ANS_REMOVE : ANS_DISCARD;
    if (t->kind == TRACER_ERL_MSG) /* EV-EXAMPLE-TRACER */
        return strcmp(tag, "send") == 0 || status ? ANS_TRACE : ANS_DISCARD;
    for (size_t i = 0; i < t->nanswers; i++)
        if (strcmp(t->answers[i].tag, tag) == 0)
            return t->answers[i].answer;
    return t->default_answer;
}

static const char *tracer_rule(const Session *s)
{
    if (s->tracer->kind != TRACER_ERL_MSG)
        return "";
    return s->state_dead ? " EV-EXAMPLE-TRACER STATUS-DEAD-STATE" : " EV-EXAMPLE-TRACER";
}

Answer enabled_probe(Model *m, int s, int proc)
{
    const Session *ses = &m->sessions[s];
    Answer ans = enabled_answer(ses, "trace_status");
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    /* STATUS-PROBE: always enabled/3, never enabled_X */
    buf_printf(&body, "enabled(trace_status, <%s>, <%s>) -> %s", ses->state, m->procs[proc].name,
               answer_name(ans));
    buf_printf(&rules, "STATUS-PROBE%s%s", ans == ANS_REMOVE ? " STATUS-REMOVE" : "", tracer_rule(ses));
    stream_line(m->out, stream_class("trace_status"), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    return ans;
}

bool enabled_live(const Model *m, int s, int proc, const char *tag)
{
    const Proc *p = &m->procs[proc];
    Category c;
    return p->alive && p->trace[s].attached && tag_category(tag, &c) && flags_cover(p->trace[s].flags, c);
}

bool enabled_consult(Model *m, int s, int proc, const char *tag, const char *ev_rules)
{
    const Session *ses = &m->sessions[s];
    Category c;
    tag_category(tag, &c);
    Answer ans = enabled_answer(ses, tag);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&body, "%s(", dispatch_enabled(ses->tracer->callbacks, c));
    term_print_atom(&body, tag);
    buf_printf(&body, ", <%s>, <%s>) -> %s", ses->state, m->procs[proc].name, answer_name(ans));
    const char *origin = m->procs[proc].trace[s].origin; /* set while attached */
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-ENABLED%s %s%s %s",
               ans == ANS_DISCARD ? " ENABLED-DISCARD" : ans == ANS_REMOVE ? " ENABLED-REMOVE-EVENT" : "",
               ev_rules, tracer_rule(ses), origin);
    stream_line(m->out, stream_class(tag), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    /* ENABLED-REMOVE-EVENT: treated as discard; for send and call tracepoints the tracer is
     * detached as well, for 'receive' and procs ones it is not (C-5, C-47) */
    if (ans == ANS_REMOVE && (c == CAT_SEND || c == CAT_CALL))
        status_detach(m, s, proc);
    return ans == ANS_TRACE;
}
