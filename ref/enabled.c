/* enabled.c - the enabled protocol: answers, trace_status probe, remove. */
#include <string.h>

#include "dispatch.h"
#include "model.h"

Answer enabled_answer(const Scenario *sc, const char *tag)
{
    if (sc->tracer == TRACER_ERL_MSG) /* EV-EXAMPLE-TRACER */
        return strcmp(tag, "send") == 0 || strcmp(tag, "trace_status") == 0 ? ANS_TRACE : ANS_DISCARD;
    for (size_t i = 0; i < sc->nanswers; i++)
        if (strcmp(sc->answers[i].tag, tag) == 0)
            return sc->answers[i].answer;
    return sc->default_answer;
}

static const char *tracer_rule(const Model *m)
{
    return m->sc->tracer == TRACER_ERL_MSG ? " EV-EXAMPLE-TRACER" : "";
}

Answer enabled_probe(Model *m, int proc)
{
    Answer ans = enabled_answer(m->sc, "trace_status");
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    /* STATUS-PROBE: always enabled/3, never enabled_X */
    buf_printf(&body, "enabled(trace_status, <tracer>, <%s>) -> %s", m->procs[proc].name,
               answer_name(ans));
    buf_printf(&rules, "STATUS-PROBE%s%s", ans == ANS_REMOVE ? " STATUS-REMOVE" : "", tracer_rule(m));
    stream_line(m->out, stream_class("trace_status"), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    return ans;
}

bool enabled_live(const Model *m, int proc, const char *tag)
{
    const Proc *p = &m->procs[proc];
    Category c;
    return p->alive && p->attached && tag_category(tag, &c) && flags_cover(p->flags, c);
}

bool enabled_consult(Model *m, int proc, const char *tag, const char *ev_rules)
{
    Category c;
    tag_category(tag, &c);
    Answer ans = enabled_answer(m->sc, tag);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&body, "%s(", dispatch_enabled(m->sc->callbacks, c));
    term_print_atom(&body, tag);
    buf_printf(&body, ", <tracer>, <%s>) -> %s", m->procs[proc].name, answer_name(ans));
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-ENABLED%s %s%s",
               ans == ANS_DISCARD ? " ENABLED-DISCARD" : ans == ANS_REMOVE ? " ENABLED-REMOVE-EVENT" : "",
               ev_rules, tracer_rule(m));
    stream_line(m->out, stream_class(tag), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    if (ans == ANS_REMOVE) /* treated as discard, and the tracer is detached */
        m->procs[proc].attached = false;
    return ans == ANS_TRACE;
}
