/* stream.c - line emission. */
#include "stream.h"

#include <string.h>

/* What a bounded stream holds in memory before moving it to its file: large enough that a
 * golden case never makes a file, small beside the millions of lines of a long scenario. */
enum { STREAM_HELD = 256 * 1024 };

void stream_init(Stream *s, const char *id, bool explain)
{
    *s = (Stream){.explain = explain};
    buf_init(&s->text);
    buf_printf(&s->text, "%% tcs stream v1: %s\n", id);
}

void stream_bound(Stream *s) { s->bounded = true; }

/* Moves the text held in memory to the file once it is more than STREAM_HELD bytes. */
static void spill_if_full(Stream *s)
{
    if (!s->bounded || s->text.len < STREAM_HELD)
        return;
    if (!s->spill)
        s->spill = tmpfile();
    if (!s->spill || fwrite(s->text.data, 1, s->text.len, s->spill) != s->text.len) {
        s->bounded = false; /* no file, or a full one: the rest stays in memory, nothing is lost */
        return;
    }
    s->spilled += s->text.len;
    s->text.len = 0;
    s->text.data[0] = '\0';
}

void stream_line(Stream *s, char cls, const char *body, const char *rules)
{
    char head[2] = {cls, ' '};
    buf_putn(&s->text, head, sizeof head);
    buf_puts(&s->text, body);
    if (s->explain && rules && rules[0]) {
        buf_puts(&s->text, "  % ");
        buf_puts(&s->text, rules);
    }
    buf_puts(&s->text, "\n");
    spill_if_full(s);
}

void stream_decided(Stream *s, const char *rules)
{
    if (!s->explain)
        return;
    buf_printf(&s->text, "%% decided %s\n", rules);
    spill_if_full(s);
}

void stream_comment(Stream *s, const char *text)
{
    buf_printf(&s->text, "%% %s\n", text);
    spill_if_full(s);
}

void stream_puts(Stream *s, const char *text)
{
    buf_puts(&s->text, text);
    spill_if_full(s);
}

char stream_class(const char *tag) { return strcmp(tag, "trace_status") == 0 ? 'I' : 'N'; }

size_t stream_size(const Stream *s) { return s->spilled + s->text.len; }

bool stream_write(Stream *s, FILE *f)
{
    bool ok = true;
    if (s->spill) {
        char chunk[65536];
        size_t n;
        ok = fflush(s->spill) == 0 && fseek(s->spill, 0, SEEK_SET) == 0;
        while (ok && (n = fread(chunk, 1, sizeof chunk, s->spill)) > 0)
            ok = fwrite(chunk, 1, n, f) == n;
        ok = ok && !ferror(s->spill) && fseek(s->spill, 0, SEEK_END) == 0;
    }
    return ok && fwrite(buf_str(&s->text), 1, s->text.len, f) == s->text.len;
}

void stream_free(Stream *s)
{
    if (s->spill)
        fclose(s->spill);
    s->spill = NULL;
    s->spilled = 0;
    buf_free(&s->text);
}
