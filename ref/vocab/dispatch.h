/* dispatch.h - tag categories and callback fallback (CONFORMANCE.md §2, ref/vocab/dispatch.c). */
#ifndef TCS_DISPATCH_H
#define TCS_DISPATCH_H
#include <stdbool.h>

#include "buf.h"

/* Callback categories, in alphabetical order of their names (so callback order is sorted). */
typedef enum {
    CAT_CALL, CAT_GARBAGE_COLLECTION, CAT_PORTS, CAT_PROCS, CAT_RECEIVE,
    CAT_RUNNING_PORTS, CAT_RUNNING_PROCS, CAT_SEND, CAT_COUNT
} Category;

enum { CALLBACK_COUNT = 2 * CAT_COUNT };

/* Guarantees: the category's name as in enabled_<name> (e.g. "send"). */
const char *category_name(Category c);
/* Guarantees: true iff tag is a trace tag of some category, trace_status or seq_trace
 * (FALLBACK-CATEGORY). */
bool tag_is_known(const char *tag);
/* Guarantees: the category of a tag for a process tracee (link & co are procs); false if none. */
bool tag_category(const char *tag, Category *out);
/* Guarantees: the category of a tag for a port tracee: link & co and register & co are ports,
 * in & co are running_ports (PORTS-CATEGORY); false if none. */
bool tag_category_port(const char *tag, Category *out);
/* Guarantees: index 0..CALLBACK_COUNT-1 of an optional callback name, or -1; index order is
 * the sorted order of the names (enabled_* by category, then trace_*). */
int callback_index(const char *name);
/* Guarantees: the name of the optional callback with that index. */
const char *callback_name(int index);
/* Guarantees: "enabled_<cat>" if that bit is in callbacks, else "enabled" (FALLBACK-ENABLED). */
const char *dispatch_enabled(unsigned callbacks, Category c);
/* Guarantees: "trace_<cat>" if that bit is in callbacks, else "trace" (FALLBACK-TRACE). */
const char *dispatch_trace(unsigned callbacks, Category c);
/* Guarantees: the tag table as one JSON object (tcsref tags; PROTOCOLS.md section 3): categories
 * and callbacks in bit order, each tag's process and port category, the special tags. */
void tag_table_print(Buf *out);

#endif
