/* porttracer.c - a port as the legacy tracer (CONFORMANCE.md section 2, "Trace sessions",
 * PORT-TRACER): erlang:trace/3 with {tracer, Port}. The runtime's built-in tracer module,
 * erl_tracer, builds the message a tracer process would get and writes its external term
 * format to the port as one command (erl_tracer_nif.c trace/6: enif_term_to_binary, then
 * enif_port_command); its enabled/3 answers remove once the port is gone. */
#include "control.h"
#include "porttracer.h"

bool porttracer_step(Model *m, const Step *st)
{
    (void)st;
    /* the port cat, whose {packet, 4} framing hands each command back whole to its owner, the
     * harness's tracer state process: what the runtime wrote is what the stream shows */
    Term *port = term_port(m->a, "tracer_port");
    Buf result;
    buf_init(&result);
    buf_puts(&result, "-> ");
    term_print(&result, port, PRINT_CANON);
    control_line(m, "erlang:open_port({spawn,\"cat\"},[binary,{packet,4}])", buf_str(&result), "PORT-TRACER");
    buf_free(&result);
    m->sessions[LEGACY_SESSION].state_term = port;
    return true;
}
