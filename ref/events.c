/* events.c - which concern handles each step of a scenario. */
#include "model.h"

bool events_step(Model *m, const Step *st)
{
    if (st->kind == ST_TRACE)
        return control_trace(m, st);
    if (st->kind == ST_PATTERN)
        return st->event ? msgpat_step(m, st) : patterns_step(m, st);
    if (st->kind == ST_SESSION)
        return sessions_step(m, st);
    int p = model_proc(m, st->actor);
    if (!m->procs[p].alive)
        return model_unsupported(m, st->line, st->actor_col, "a step by a dead process is");
    switch (st->kind) {
    case ST_SEND: return messages_send(m, p, st);
    case ST_RECV: return messages_recv(m, p, st);
    case ST_CALL: return calls_step(m, p, st);
    case ST_SPAWN: return procs_spawn(m, p, st);
    case ST_LINK: return procs_link(m, p, st, true);
    case ST_UNLINK: return procs_link(m, p, st, false);
    case ST_REGISTER: return procs_register(m, p, st, true);
    case ST_UNREGISTER: return procs_register(m, p, st, false);
    case ST_EXIT: return procs_exit(m, p, st);
    default: return true;
    }
}
