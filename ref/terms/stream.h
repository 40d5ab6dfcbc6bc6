/* stream.h - the canonical trace stream (CONFORMANCE.md §1) with rule IDs per line. */
#ifndef TCS_STREAM_H
#define TCS_STREAM_H
#include <stdbool.h>

#include "buf.h"

/* Output being built; explain adds "  % RULE..." to every line. */
typedef struct Stream { Buf text; bool explain; } Stream;

/* Guarantees: an empty stream starting with the header comment for case id. */
void stream_init(Stream *s, const char *id, bool explain);
/* Guarantees: one line "CLASS BODY" (class 'N' or 'I'), plus "  % RULES" when explaining. */
void stream_line(Stream *s, char cls, const char *body, const char *rules);
/* Guarantees: one comment line "% TEXT" (the stream's readers skip it). */
void stream_comment(Stream *s, const char *text);
/* Guarantees: the class of a line by its tag: 'I' iff the tag is trace_status (STATUS-PROBE). */
char stream_class(const char *tag);
/* Guarantees: memory released. */
void stream_free(Stream *s);

#endif
