/* allow.c - allowance windows (PROTOCOLS.md section 6, "Allowance windows"). */
#include <string.h>

#include "allow.h"

const char *allow_capture(Model *m, int p, AllowFire fire, const void *arg)
{
    Stream scratch = {.explain = false};
    buf_init(&scratch.text);
    Stream *out = m->out;
    const char *last = m->procs[p].last_traced;
    /* a template is what may happen, not what did: a tracepoint that would detach p's tracer
     * (TRACER-UNLOADED: no callback to ask while the module is gone) must not detach it here */
    size_t states = (size_t)m->nsessions * sizeof *m->procs[p].trace;
    TraceState *kept = arena_alloc(m->a, states);
    memcpy(kept, m->procs[p].trace, states);
    m->out = &scratch;
    fire(m, p, arg);
    m->out = out;
    m->procs[p].last_traced = last;
    memcpy(m->procs[p].trace, kept, states);
    Buf tpl;
    buf_init(&tpl);
    for (const char *line = buf_str(&scratch.text); *line;) {
        const char *nl = strchr(line, '\n');
        buf_printf(&tpl, "%s%.*s", tpl.len ? " ; " : "", (int)(nl - line), line);
        line = nl + 1;
    }
    const char *r = tpl.len ? arena_strndup(m->a, buf_str(&tpl), tpl.len) : NULL;
    buf_free(&tpl);
    stream_free(&scratch);
    return r;
}

unsigned allow_open(Model *m, const char *rule, int limit, unsigned after, const char *tpl)
{
    unsigned id = ++m->nwindows;
    Buf body;
    buf_init(&body);
    buf_printf(&body, "open w%u %s 0..", id, rule);
    if (limit < 0)
        buf_printf(&body, "*");
    else
        buf_printf(&body, "%d", limit);
    if (after)
        buf_printf(&body, " after w%u", after);
    buf_printf(&body, ": %s", tpl);
    stream_line(m->out, 'A', buf_str(&body), rule);
    buf_free(&body);
    return id;
}

void allow_close(Model *m, unsigned id, const char *rule)
{
    Buf body;
    buf_init(&body);
    buf_printf(&body, "close w%u", id);
    stream_line(m->out, 'A', buf_str(&body), rule);
    buf_free(&body);
}
