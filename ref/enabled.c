/* enabled.c - the enabled protocol: answers, trace_status probe, remove. */
#include <string.h>

#include "dispatch.h"
#include "model.h"

Answer enabled_answer(const TracerDecl *t, const char *tag)
{
    if (t->kind == TRACER_ERL_MSG) /* EV-EXAMPLE-TRACER */
        return strcmp(tag, "send") == 0 || strcmp(tag, "trace_status") == 0 ? ANS_TRACE : ANS_DISCARD;
    for (size_t i = 0; i < t->nanswers; i++)
        if (strcmp(t->answers[i].tag, tag) == 0)
            return t->answers[i].answer;
    return t->default_answer;
}

static const char *tracer_rule(const TracerDecl *t)
{
    return t->kind == TRACER_ERL_MSG ? " EV-EXAMPLE-TRACER" : "";
}

Answer enabled_probe(Model *m, int s, int proc)
{
    return enabled_probe_as(m, m->sessions[s].tracer, m->sessions[s].state, proc, "STATUS-REMOVE");
}

Answer enabled_probe_as(Model *m, const TracerDecl *tracer, const char *state, int proc,
                        const char *remove_rule)
{
    Answer ans = enabled_answer(tracer, "trace_status");
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    /* STATUS-PROBE: always enabled/3, never enabled_X */
    buf_printf(&body, "enabled(trace_status, <%s>, ", state);
    model_print_id(&body, m, proc);
    buf_printf(&body, ") -> %s", answer_name(ans));
    buf_printf(&rules, "STATUS-PROBE%s%s%s", ans == ANS_REMOVE ? " " : "", ans == ANS_REMOVE ? remove_rule : "",
               tracer_rule(tracer));
    stream_line(m->out, stream_class("trace_status"), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    return ans;
}

bool enabled_live(const Model *m, int s, int proc, const char *tag)
{
    const Proc *p = &m->procs[proc];
    Category c;
    return p->alive && p->trace[s].attached && model_category(m, proc, tag, &c) &&
           flags_cover_tag(p->trace[s].flags, c, tag);
}

bool enabled_consult(Model *m, int s, int proc, const char *tag, const char *ev_rules)
{
    const Session *ses = &m->sessions[s];
    Answer ans = enabled_ask(m, ses->tracer, ses->state, proc, tag, ev_rules, "ENABLED-REMOVE-EVENT");
    if (ans == ANS_REMOVE) /* treated as discard, and the tracer is detached */
        m->procs[proc].trace[s].attached = false;
    return ans == ANS_TRACE;
}

Answer enabled_ask(Model *m, const TracerDecl *tracer, const char *state, int proc, const char *tag,
                   const char *ev_rules, const char *remove_rule)
{
    Category c;
    model_category(m, proc, tag, &c);
    Answer ans = enabled_answer(tracer, tag);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&body, "%s(", dispatch_enabled(tracer->callbacks, c));
    term_print_atom(&body, tag);
    buf_printf(&body, ", <%s>, ", state);
    model_print_id(&body, m, proc);
    buf_printf(&body, ") -> %s", answer_name(ans));
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-ENABLED%s%s %s%s",
               ans == ANS_DISCARD ? " ENABLED-DISCARD" : ans == ANS_REMOVE ? " " : "",
               ans == ANS_REMOVE ? remove_rule : "", ev_rules, tracer_rule(tracer));
    stream_line(m->out, stream_class(tag), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    return ans;
}
