/* test_tracermod.c - the tracer module's life (ref/harness/tracermod.c): which processes lose
 * their tracer at `tracer unload` itself (TRACER-UNLOADED-PURGE, C-275) and which keep it until
 * the runtime next asks them (TRACER-UNLOADED); the corpus (cases/tracer-module/tracer_unload_purge_*) checks
 * the same live; a port keeps it through its events (TRACER-UNLOADED-PORT-KEEPS). */
#include "check.h"
#include "sim.h"

#define H HDR "tracer recorder\nprocess a b c\n"

/* the purge schedules c, blocked in a receive, with the module gone: after the reload it has no
 * tracer, and its exit is not traced; b, waiting in the harness's gate, keeps its tracer */
static void test_blocked_loses_tracer_at_unload(int *failures)
{
    sim(failures, H "trace b on procs\ntrace c on procs\nc recv\ntracer unload\ntracer reload\n"
                    "info b tracer\ninfo c tracer\na kill c boom",
        "I enabled(trace_status, <tracer>, <b>) -> trace\n"
        "N ctl erlang:trace(<b>,true,[procs]) -> 1\n"
        "I enabled(trace_status, <tracer>, <c>) -> trace\n"
        "N ctl erlang:trace(<c>,true,[procs]) -> 1\n"
        "N ctl code:delete(recorder) -> true\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "I enabled(trace_status, <tracer>, <b>) -> trace\n"
        "N ctl erlang:trace_info(<b>,tracer) -> {tracer,{tcs_recorder,<tracer>}}\n"
        "N ctl erlang:trace_info(<c>,tracer) -> {tracer,[]}\n");
}

/* a process suspended on a busy port runs its system tasks too: it loses its flags at the unload */
static void test_suspended_loses_tracer_at_unload(int *failures)
{
    sim(failures, H "a open_port x driver\na port_control x busy\ntrace b on procs\nb port_command x <<\"b\">>\n"
                    "tracer unload\ntracer reload\ninfo b flags",
        "I enabled(trace_status, <tracer>, <b>) -> trace\n"
        "N ctl erlang:trace(<b>,true,[procs]) -> 1\n"
        "N ctl code:delete(recorder) -> true\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "N ctl erlang:trace_info(<b>,flags) -> {flags,[]}\n");
}

/* c blocks only after the module is back: it keeps the tracer, and its wake-up is traced */
static void test_blocked_after_reload_keeps_tracer(int *failures)
{
    sim(failures, H "trace c on running\ntracer unload\ntracer reload\nc recv\na send c hi",
        "I enabled(trace_status, <tracer>, <c>) -> trace\n"
        "N ctl erlang:trace(<c>,true,[running]) -> 1\n"
        "N ctl code:delete(recorder) -> true\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "N enabled(out, <tracer>, <c>) -> trace\n"
        "N trace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{})\n"
        "A open w1 RUN-BLOCKED-SIGNALS 0..*: N enabled(in, <tracer>, <c>) -> trace ; "
        "N trace(in, <tracer>, <c>, {tcs_puppet,block,0}, #{}) ... N enabled(out, <tracer>, <c>) -> trace ; "
        "N trace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{})\n"
        "A close w1\n"
        "N enabled(in, <tracer>, <c>) -> trace\n"
        "N trace(in, <tracer>, <c>, {tcs_puppet,block,0}, #{})\n");
}

/* V4: c, blocked at the unload, loses its time stamp flags with its tracer; traced afresh after the
 * on-demand load, its wake-up has the new kind, not the remembered strict_monotonic one */
static void test_blocked_retraced_gets_fresh_flags(int *failures)
{
    sim(failures, H "trace c on running strict_monotonic_timestamp\nc recv\ntracer unload\n"
                    "trace c on running monotonic_timestamp\na send c hi",
        "I enabled(trace_status, <tracer>, <c>) -> trace\n"
        "N ctl erlang:trace(<c>,true,[running,strict_monotonic_timestamp]) -> 1\n"
        "N enabled(out, <tracer>, <c>) -> trace\n"
        "N trace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{timestamp=>strict_monotonic})\n"
        "A open w1 RUN-BLOCKED-SIGNALS 0..*: N enabled(in, <tracer>, <c>) -> trace ; "
        "N trace(in, <tracer>, <c>, {tcs_puppet,block,0}, #{timestamp=>strict_monotonic}) ... "
        "N enabled(out, <tracer>, <c>) -> trace ; "
        "N trace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{timestamp=>strict_monotonic})\n"
        "N ctl code:delete(recorder) -> true\n"
        "A close w1\n"
        "I enabled(trace_status, <?>, <tracer>) -> trace\n"
        "I enabled(trace_status, <tracer>, <c>) -> trace\n"
        "N ctl erlang:trace(<c>,true,[running,monotonic_timestamp]) -> 1\n"
        "A open w2 RUN-BLOCKED-SIGNALS 0..*: N enabled(in, <tracer>, <c>) -> trace ; "
        "N trace(in, <tracer>, <c>, {tcs_puppet,block,0}, #{timestamp=>monotonic}) ... "
        "N enabled(out, <tracer>, <c>) -> trace ; "
        "N trace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{timestamp=>monotonic})\n"
        "A close w2\n"
        "N enabled(in, <tracer>, <c>) -> trace\n"
        "N trace(in, <tracer>, <c>, {tcs_puppet,block,0}, #{timestamp=>monotonic})\n");
}

/* a port's command while the module is gone is dropped, and the port keeps its tracer: its close
 * after the reload is traced (TRACER-UNLOADED-PORT-KEEPS, C-330) */
static void test_port_keeps_tracer_through_event(int *failures)
{
    sim(failures, H "a open_port x\ntrace x on 'receive'\ntracer unload\na port_send x <<\"gone\">>\n"
                    "tracer reload\na port_close x",
        "N ctl erlang:trace(<port:x>,true,['receive']) -> 1\n"
        "N ctl code:delete(recorder) -> true\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "N enabled('receive', <tracer>, <port:x>) -> trace\n"
        "N trace('receive', <tracer>, <port:x>, {<a>,close}, #{})\n");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_blocked_loses_tracer_at_unload(failures);
    test_suspended_loses_tracer_at_unload(failures);
    test_blocked_after_reload_keeps_tracer(failures);
    test_blocked_retraced_gets_fresh_flags(failures);
    test_port_keeps_tracer_through_event(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
