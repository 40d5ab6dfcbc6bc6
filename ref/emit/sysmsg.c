/* sysmsg.c - the system monitor messages a session's tracer process gets (CONFORMANCE.md
 * section 2, "System monitoring in a session", SYSMON-MESSAGE). */
#include "sysmsg.h"

/* msg(<receiver>, {monitor,Subject,Event,Info}) into body. */
static void message(Buf *body, Model *m, const char *receiver, Term *subject, const char *event, Term *info)
{
    Term *el[4] = {term_atom(m->a, "monitor"), subject, term_atom(m->a, event), info};
    buf_printf(body, "msg(<%s>, ", receiver);
    term_print(body, term_tuple(m->a, 4, el), PRINT_CANON);
    buf_puts(body, ")");
}

/* The line of a message to receiver. */
static void monitor_line(Model *m, const char *receiver, int p, const char *event, Term *info, const char *rules)
{
    Buf body;
    buf_init(&body);
    message(&body, m, receiver, model_pid(m, p), event, info);
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
}

void sysmsg_monitor(Model *m, int s, int p, const char *event, Term *info, const char *rules)
{
    monitor_line(m, m->sessions[s].state, p, event, info, rules);
}

void sysmsg_legacy_monitor(Model *m, int p, const char *event, Term *info, const char *rules)
{
    monitor_line(m, m->legacy_monitor, p, event, info, rules);
}

const char *sysmsg_template(Model *m, int s, int p, const char *event, Term *info)
{
    return sysmsg_template_about(m, m->sessions[s].state, model_pid(m, p), event, info);
}

const char *sysmsg_template_about(Model *m, const char *receiver, Term *subject, const char *event, Term *info)
{
    Buf body;
    buf_init(&body);
    buf_puts(&body, "N ");
    message(&body, m, receiver, subject, event, info);
    const char *t = arena_strndup(m->a, buf_str(&body), body.len);
    buf_free(&body);
    return t;
}
