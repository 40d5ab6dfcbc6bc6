/* stream.h - the canonical trace stream (CONFORMANCE.md §1) with rule IDs per line. */
#ifndef TCS_STREAM_H
#define TCS_STREAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "buf.h"

/* Output being built; explain adds "  % RULE..." to every line. A bounded stream keeps only its
 * latest text in memory, the rest in spill (a temporary file, opened when first needed). */
typedef struct Stream { Buf text; bool explain, bounded; FILE *spill; size_t spilled; } Stream;

/* Guarantees: an empty stream starting with the header comment for case id. */
void stream_init(Stream *s, const char *id, bool explain);
/* Guarantees: from now on s holds little memory whatever its length: text past a few hundred
 * KB moves to a temporary file (in memory still if none can be made); stream_write gives it all. */
void stream_bound(Stream *s);
/* Guarantees: one line "CLASS BODY" (class 'N' or 'I'), plus "  % RULES" when explaining. */
void stream_line(Stream *s, char cls, const char *body, const char *rules);
/* Guarantees: when explaining, one comment line "% decided RULES" (the stream's readers skip it):
 * rules the model applied at this point that write no line of their own; nothing otherwise. */
void stream_decided(Stream *s, const char *rules);
/* Guarantees: one comment line "% TEXT" (the stream's readers skip it). */
void stream_comment(Stream *s, const char *text);
/* Guarantees: text (whole lines) appended as it is. */
void stream_puts(Stream *s, const char *text);
/* Guarantees: the class of a line by its tag: 'I' iff the tag is trace_status (STATUS-PROBE). */
char stream_class(const char *tag);
/* Guarantees: the length in bytes of the whole stream so far. */
size_t stream_size(const Stream *s);
/* Guarantees: the whole stream so far, in order, written to f; false if some write failed. */
bool stream_write(Stream *s, FILE *f);
/* Guarantees: memory and the temporary file released. */
void stream_free(Stream *s);

#endif
