/* stream.c - line emission. */
#include "stream.h"

#include <string.h>

void stream_init(Stream *s, const char *id, bool explain)
{
    buf_init(&s->text);
    s->explain = explain;
    buf_printf(&s->text, "%% tcs stream v1: %s\n", id);
}

void stream_line(Stream *s, char cls, const char *body, const char *rules)
{
    buf_printf(&s->text, "%c %s", cls, body);
    if (s->explain && rules && rules[0])
        buf_printf(&s->text, "  %% %s", rules);
    buf_puts(&s->text, "\n");
}

void stream_comment(Stream *s, const char *text) { buf_printf(&s->text, "%% %s\n", text); }

char stream_class(const char *tag) { return strcmp(tag, "trace_status") == 0 ? 'I' : 'N'; }

void stream_free(Stream *s) { buf_free(&s->text); }
