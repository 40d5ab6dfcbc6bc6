/* sysmsg.c - the system monitor messages a session's tracer process gets (CONFORMANCE.md
 * section 2, "System monitoring in a session", SYSMON-MESSAGE). */
#include "sysmsg.h"

void sysmsg_monitor(Model *m, int s, int p, const char *event, Term *info, const char *rules)
{
    Term *el[4] = {term_atom(m->a, "monitor"), model_pid(m, p), term_atom(m->a, event), info};
    Buf body;
    buf_init(&body);
    buf_printf(&body, "msg(<%s>, ", m->sessions[s].state);
    term_print(&body, term_tuple(m->a, 4, el), PRINT_CANON);
    buf_puts(&body, ")");
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
}
