/* dispatch.c - FALLBACK-CATEGORY, FALLBACK-ENABLED, FALLBACK-TRACE. */
#include "dispatch.h"

#include <stddef.h>
#include <string.h>

static const char *const cat_names[CAT_COUNT] = {
    "call", "garbage_collection", "ports", "procs", "receive",
    "running_ports", "running_procs", "send",
};

static const char *const callback_names[CALLBACK_COUNT] = {
    "enabled_call", "enabled_garbage_collection", "enabled_ports", "enabled_procs",
    "enabled_receive", "enabled_running_ports", "enabled_running_procs", "enabled_send",
    "trace_call", "trace_garbage_collection", "trace_ports", "trace_procs",
    "trace_receive", "trace_running_ports", "trace_running_procs", "trace_send",
};

/* FALLBACK-CATEGORY, for a process tracee. Port-only tags (open, closed) are ports;
 * link & co are listed under procs first because the tracee is a process. */
static const struct { const char *tag; Category cat; } tags[] = {
    {"send", CAT_SEND}, {"send_to_non_existing_process", CAT_SEND},
    {"receive", CAT_RECEIVE},
    {"call", CAT_CALL}, {"return_to", CAT_CALL}, {"return_from", CAT_CALL},
    {"exception_from", CAT_CALL},
    {"spawn", CAT_PROCS}, {"spawned", CAT_PROCS}, {"exit", CAT_PROCS}, {"link", CAT_PROCS},
    {"unlink", CAT_PROCS}, {"getting_linked", CAT_PROCS}, {"getting_unlinked", CAT_PROCS},
    {"register", CAT_PROCS}, {"unregister", CAT_PROCS},
    {"open", CAT_PORTS}, {"closed", CAT_PORTS},
    {"in", CAT_RUNNING_PROCS}, {"out", CAT_RUNNING_PROCS}, {"in_exiting", CAT_RUNNING_PROCS},
    {"out_exiting", CAT_RUNNING_PROCS}, {"out_exited", CAT_RUNNING_PROCS},
    {"gc_minor_start", CAT_GARBAGE_COLLECTION}, {"gc_minor_end", CAT_GARBAGE_COLLECTION},
    {"gc_major_start", CAT_GARBAGE_COLLECTION}, {"gc_major_end", CAT_GARBAGE_COLLECTION},
};

const char *category_name(Category c) { return cat_names[c]; }

bool tag_category(const char *tag, Category *out)
{
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (strcmp(tags[i].tag, tag) == 0) {
            *out = tags[i].cat;
            return true;
        }
    return false;
}

bool tag_is_known(const char *tag)
{
    Category c;
    return strcmp(tag, "trace_status") == 0 || strcmp(tag, "seq_trace") == 0 || tag_category(tag, &c);
}

bool tag_category_port(const char *tag, Category *out)
{
    static const char *const port_tags[] = {"link", "unlink", "getting_linked", "getting_unlinked",
                                            "register", "unregister"};
    if (!tag_category(tag, out))
        return false;
    if (*out == CAT_RUNNING_PROCS)
        *out = CAT_RUNNING_PORTS;
    for (size_t i = 0; i < sizeof port_tags / sizeof port_tags[0]; i++)
        if (strcmp(port_tags[i], tag) == 0)
            *out = CAT_PORTS;
    return true;
}

int callback_index(const char *name)
{
    for (int i = 0; i < CALLBACK_COUNT; i++)
        if (strcmp(callback_names[i], name) == 0)
            return i;
    return -1;
}

const char *callback_name(int index) { return callback_names[index]; }

const char *dispatch_enabled(unsigned callbacks, Category c)
{
    return (callbacks >> c) & 1u ? callback_names[c] : "enabled";
}

const char *dispatch_trace(unsigned callbacks, Category c)
{
    return (callbacks >> (CAT_COUNT + c)) & 1u ? callback_names[CAT_COUNT + c] : "trace";
}

void tag_table_print(Buf *out)
{
    buf_puts(out, "{\"categories\": [");
    for (int c = 0; c < CAT_COUNT; c++)
        buf_printf(out, "%s\"%s\"", c ? ", " : "", cat_names[c]);
    buf_puts(out, "],\n \"callbacks\": [");
    for (int i = 0; i < CALLBACK_COUNT; i++)
        buf_printf(out, "%s\"%s\"", i ? ", " : "", callback_names[i]);
    buf_puts(out, "],\n \"tags\": [");
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        Category port = tags[i].cat;
        tag_category_port(tags[i].tag, &port);
        buf_printf(out, "%s\n  {\"tag\": \"%s\", \"process\": \"%s\", \"port\": \"%s\"}", i ? "," : "",
                   tags[i].tag, cat_names[tags[i].cat], cat_names[port]);
    }
    buf_puts(out, "],\n \"special\": [\"trace_status\", \"seq_trace\"]}\n");
}
