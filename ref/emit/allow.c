/* allow.c - allowance windows (PROTOCOLS.md section 6, "Allowance windows"). */
#include <string.h>

#include "allow.h"

AllowKept allow_keep(Model *m, int p)
{
    size_t states = (size_t)m->nsessions * sizeof *m->procs[p].trace;
    AllowKept kept = {m->procs[p].last_traced, arena_alloc(m->scratch, states)};
    memcpy(kept.trace, m->procs[p].trace, states);
    return kept;
}

void allow_restore(Model *m, int p, const AllowKept *kept)
{
    m->procs[p].last_traced = kept->last_traced;
    memcpy(m->procs[p].trace, kept->trace, (size_t)m->nsessions * sizeof *m->procs[p].trace);
}

const char *allow_capture(Model *m, int p, AllowFire fire, const void *arg)
{
    Stream scratch = {.explain = false};
    buf_init(&scratch.text);
    Stream *out = m->out;
    /* a template is what may happen, not what did: a tracepoint that would detach p's tracer
     * (TRACER-UNLOADED: no callback to ask while the module is gone) must not detach it here */
    AllowKept kept = allow_keep(m, p);
    m->out = &scratch;
    fire(m, p, arg);
    m->out = out;
    allow_restore(m, p, &kept);
    Buf tpl;
    buf_init(&tpl);
    for (const char *line = buf_str(&scratch.text); *line;) {
        const char *nl = strchr(line, '\n');
        buf_printf(&tpl, "%s%.*s", tpl.len ? " ; " : "", (int)(nl - line), line);
        line = nl + 1;
    }
    const char *r = tpl.len ? arena_strndup(m->scratch, buf_str(&tpl), tpl.len) : NULL;
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
    m->nwindow_closes++;
    stream_line(m->out, 'A', buf_str(&body), rule);
    buf_free(&body);
}

void allow_capture_start(Model *m, Captured *c)
{
    c->lines = (Stream){.explain = m->out->explain};
    buf_init(&c->lines.text);
    c->out = m->out;
    m->out = &c->lines;
}

void allow_capture_stop(Model *m, Captured *c) { m->out = c->out; }

void allow_captured_write(Model *m, const Captured *c) { stream_puts(m->out, buf_str(&c->lines.text)); }

void allow_captured_free(Captured *c) { stream_free(&c->lines); }

/* The lines of the n parts, one after the other. */
static void parts_text(Buf *b, const Captured *const parts[], int n)
{
    for (int i = 0; i < n; i++)
        buf_puts(b, buf_str(&parts[i]->lines.text));
}

void allow_either(Model *m, const char *rule, const Captured *const first[], const Captured *const second[], int n)
{
    Buf a, b, mark;
    buf_init(&a);
    buf_init(&b);
    buf_init(&mark);
    parts_text(&a, first, n);
    parts_text(&b, second, n);
    if (strcmp(buf_str(&a), buf_str(&b)) == 0) {
        stream_puts(m->out, buf_str(&a));
    } else {
        unsigned id = ++m->nwindows; /* either-ors and windows share the ids: unique in the stream */
        buf_printf(&mark, "either w%u %s", id, rule);
        stream_line(m->out, 'A', buf_str(&mark), rule);
        stream_puts(m->out, buf_str(&a));
        buf_free(&mark);
        buf_init(&mark);
        buf_printf(&mark, "or w%u", id);
        stream_line(m->out, 'A', buf_str(&mark), rule);
        stream_puts(m->out, buf_str(&b));
        buf_free(&mark);
        buf_init(&mark);
        buf_printf(&mark, "end w%u", id);
        stream_line(m->out, 'A', buf_str(&mark), rule);
    }
    buf_free(&a);
    buf_free(&b);
    buf_free(&mark);
}
