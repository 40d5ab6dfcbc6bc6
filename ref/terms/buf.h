/* buf.h - a growable text buffer (the only place output is assembled). */
#ifndef TCS_BUF_H
#define TCS_BUF_H
#include <stdbool.h>
#include <stddef.h>

typedef struct Buf { char *data; size_t len, cap; } Buf;

/* Guarantees: an empty buffer; data is NULL until something is appended. */
void buf_init(Buf *b);
/* Guarantees: s is appended; data stays NUL-terminated. */
void buf_puts(Buf *b, const char *s);
/* Guarantees: n bytes of s are appended; data stays NUL-terminated. */
void buf_putn(Buf *b, const char *s, size_t n);
/* Guarantees: the printf-formatted text is appended. */
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Guarantees: a NUL-terminated string (never NULL) of the current content. */
const char *buf_str(const Buf *b);
/* Guarantees: true with the whole file appended to b, or false (b unchanged) when it cannot be opened. */
bool buf_read_file(Buf *b, const char *path);
/* Guarantees: memory released, buffer empty. */
void buf_free(Buf *b);

#endif
