/* test_model.c - run_scenario: the "not supported by model v1" errors of steps, link cascades,
 * mailbox growth, the example tracer's message, a case larger than any former cap, and together
 * blocks (their lines and refusals). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "sim.h"

#define H HDR "tracer recorder\nprocess a b c\n" /* steps start on line 7 */

static void test_unsupported(int *failures)
{
    /* PROCS-LINK-DEAD, PROCS-LINK-ONE-SIDED: only the caller's side, and noproc for a dead one */
    sim(failures, H "trace b on procs\na exit kill\nb link a\nb unlink a",
        "I enabled(trace_status, <tracer>, <b>) -> trace\nN ctl erlang:trace(<b>,true,[procs]) -> 1\n"
        "N enabled(link, <tracer>, <b>) -> trace\nN trace(link, <tracer>, <b>, <a>, #{})\n"
        "N ctl <b> link(<a>) raises error:noproc\n"
        "N enabled(unlink, <tracer>, <b>) -> trace\nN trace(unlink, <tracer>, <b>, <a>, #{})\n");
    sim(failures, H "trace a on procs\ntrace b on procs\na link b\nb link a\na unlink b\nb unlink a",
        "I enabled(trace_status, <tracer>, <a>) -> trace\nN ctl erlang:trace(<a>,true,[procs]) -> 1\n"
        "I enabled(trace_status, <tracer>, <b>) -> trace\nN ctl erlang:trace(<b>,true,[procs]) -> 1\n"
        "N enabled(link, <tracer>, <a>) -> trace\nN trace(link, <tracer>, <a>, <b>, #{})\n"
        "N enabled(getting_linked, <tracer>, <b>) -> trace\nN trace(getting_linked, <tracer>, <b>, <a>, #{})\n"
        "N enabled(link, <tracer>, <b>) -> trace\nN trace(link, <tracer>, <b>, <a>, #{})\n"
        "N enabled(unlink, <tracer>, <a>) -> trace\nN trace(unlink, <tracer>, <a>, <b>, #{})\n"
        "N enabled(getting_unlinked, <tracer>, <b>) -> trace\nN trace(getting_unlinked, <tracer>, <b>, <a>, #{})\n"
        "N enabled(unlink, <tracer>, <b>) -> trace\nN trace(unlink, <tracer>, <b>, <a>, #{})\n");
    sim(failures, H "a link b\na unlink b\nb unlink a", "");
    /* PROCS-REGISTER-BADARG, PROCS-UNREGISTER-OTHER */
    sim(failures, H "trace a on procs\ntrace b on procs\na register r\na register s\nb register r\n"
                    "b unregister r\nb unregister r\nc unregister s",
        "I enabled(trace_status, <tracer>, <a>) -> trace\nN ctl erlang:trace(<a>,true,[procs]) -> 1\n"
        "I enabled(trace_status, <tracer>, <b>) -> trace\nN ctl erlang:trace(<b>,true,[procs]) -> 1\n"
        "N enabled(register, <tracer>, <a>) -> trace\nN trace(register, <tracer>, <a>, r, #{})\n"
        "N ctl <a> register(s) raises error:badarg\n"
        "N ctl <b> register(r) raises error:badarg\n"
        "N enabled(unregister, <tracer>, <a>) -> trace\nN trace(unregister, <tracer>, <a>, r, #{})\n"
        "N ctl <b> unregister(r) raises error:badarg\n"
        "N ctl <c> unregister(s) raises error:badarg\n");
    sim(failures, H "a exit kill\na send b hi", "ERR 8:1: a step by a dead process is not supported by model v1");
    sim(failures, H "a recv\na send b hi", "ERR 8:1: a step by a process blocked in a receive is not supported by model v1");
    /* after an exit the name is free again; a dead process's name is unregistered */
    sim(failures, H "a register r\na exit normal\nb register r\nb unregister r", "");
}

/* BLOCK-TOGETHER: chains, syncs and joins, the ctl lines after the block in the order written, and
 * what the model refuses because the lines would depend on how the chains interleave. */
static void test_together(int *failures)
{
    sim(failures, H "trace b on 'receive'\ntogether\na send b x\na ms_test [1] [{'_',[],[true]}]\nb recv\n"
                    "c ms_test [2] [{'_',[],[false]}]\nend",
        "I enabled(trace_status, <tracer>, <b>) -> trace\nN ctl erlang:trace(<b>,true,['receive']) -> 1\n"
        "A together w1 BLOCK-TOGETHER\nA chain w1 <a>\n"
        "N enabled('receive', <tracer>, <b>) -> trace\nN trace('receive', <tracer>, <b>, x, #{})\n"
        "A sync w1 1 <b>\nA chain w1 <b>\nA join w1 1 <b>\nA chain w1 <c>\nA apart w1\n"
        "N ctl <a> erlang:match_spec_test([1],[{'_',[],[true]}],trace) -> {ok,true,[],[]}\n"
        "N ctl <c> erlang:match_spec_test([2],[{'_',[],[false]}],trace) -> {ok,true,[],[]}\n"); /* as OTP 25 answers */
    sim(failures, H "together\na send c x\nb send c y\nc recv\nend",
        "ERR 10:1: messages from two processes of a together block to a process that takes messages in it (which "
        "it takes first is a race) are not supported by model v1");
    sim(failures, H "together\nc recv\na send c x\nend",
        "ERR 8:1: a receive in a together block before the send it takes (write the send first) is not supported "
        "by model v1");
    sim(failures, H "trace a on running\ntogether\na send b x\nb send a y\nend",
        "ERR 9:1: a step in a together block of a process traced for running (where it is scheduled out depends "
        "on the other processes) is not supported by model v1");
    sim(failures, H "together\na link b\nb unlink a\nend",
        "ERR 9:10: two processes of a together block linking or unlinking the same two processes (which comes "
        "first is a race) are not supported by model v1");
    sim(failures, H "trace a on procs set_on_link\ntogether\na link b\nb send c x\nend",
        "ERR 9:1: a step that changes trace flags in a together block (when the other processes' steps see the "
        "change is a race) is not supported by model v1");
}

static void test_links(int *failures)
{
    /* a dies: b dies by the link, c dies by b's link; c is not killed twice via a */
    sim(failures,
        H "trace a on procs\ntrace b on procs\ntrace c on procs\na link b\na link c\nb link c\n"
          "c register cr\na exit boom",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[procs]) -> 1\n"
        "I enabled(trace_status, <tracer>, <b>) -> trace\n"
        "N ctl erlang:trace(<b>,true,[procs]) -> 1\n"
        "I enabled(trace_status, <tracer>, <c>) -> trace\n"
        "N ctl erlang:trace(<c>,true,[procs]) -> 1\n"
        "N enabled(link, <tracer>, <a>) -> trace\n"
        "N trace(link, <tracer>, <a>, <b>, #{})\n"
        "N enabled(getting_linked, <tracer>, <b>) -> trace\n"
        "N trace(getting_linked, <tracer>, <b>, <a>, #{})\n"
        "N enabled(link, <tracer>, <a>) -> trace\n"
        "N trace(link, <tracer>, <a>, <c>, #{})\n"
        "N enabled(getting_linked, <tracer>, <c>) -> trace\n"
        "N trace(getting_linked, <tracer>, <c>, <a>, #{})\n"
        "N enabled(link, <tracer>, <b>) -> trace\n"
        "N trace(link, <tracer>, <b>, <c>, #{})\n"
        "N enabled(getting_linked, <tracer>, <c>) -> trace\n"
        "N trace(getting_linked, <tracer>, <c>, <b>, #{})\n"
        "N enabled(register, <tracer>, <c>) -> trace\n"
        "N trace(register, <tracer>, <c>, cr, #{})\n"
        "N enabled(exit, <tracer>, <a>) -> trace\n"
        "N trace(exit, <tracer>, <a>, boom, #{})\n"
        "N enabled(exit, <tracer>, <b>) -> trace\n"
        "N trace(exit, <tracer>, <b>, boom, #{})\n"
        "N enabled(exit, <tracer>, <c>) -> trace\n"
        "N trace(exit, <tracer>, <c>, boom, #{})\n"
        "N enabled(unregister, <tracer>, <c>) -> trace\n"
        "N trace(unregister, <tracer>, <c>, cr, #{})\n");
    /* a normal exit unlinks the survivors */
    sim(failures, H "trace a on procs\na link b\nb link c\nb exit normal\na link c",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[procs]) -> 1\n"
        "N enabled(link, <tracer>, <a>) -> trace\n"
        "N trace(link, <tracer>, <a>, <b>, #{})\n"
        "N enabled(getting_unlinked, <tracer>, <a>) -> trace\n"
        "N trace(getting_unlinked, <tracer>, <a>, <b>, #{})\n"
        "N enabled(link, <tracer>, <a>) -> trace\n"
        "N trace(link, <tracer>, <a>, <c>, #{})\n");
    /* RUN-WAKE-LINK-DOWN (C-371): blocked b, linked to a and monitoring it, is scheduled in by
     * a's normal exit before its getting_unlinked, and takes the 'DOWN' in that schedule or
     * after one wait (a window) */
    sim(failures, H "a link b\nb monitor a\ntrace b on running procs\nb recv\na exit normal",
        "I enabled(trace_status, <tracer>, <b>) -> trace\n"
        "N ctl erlang:trace(<b>,true,[running,procs]) -> 1\n"
        "N enabled(out, <tracer>, <b>) -> trace\n"
        "N trace(out, <tracer>, <b>, {tcs_puppet,block,0}, #{})\n"
        "A open w1 RUN-BLOCKED-SIGNALS 0..*: N enabled(in, <tracer>, <b>) -> trace ; "
        "N trace(in, <tracer>, <b>, {tcs_puppet,block,0}, #{}) ... N enabled(out, <tracer>, <b>) -> trace ; "
        "N trace(out, <tracer>, <b>, {tcs_puppet,block,0}, #{})\n"
        "A close w1\n"
        "N enabled(in, <tracer>, <b>) -> trace\n"
        "N trace(in, <tracer>, <b>, {tcs_puppet,block,0}, #{})\n"
        "N enabled(getting_unlinked, <tracer>, <b>) -> trace\n"
        "N trace(getting_unlinked, <tracer>, <b>, <a>, #{})\n"
        "A open w2 RUN-WAKE-LINK-DOWN 0..1: N enabled(out, <tracer>, <b>) -> trace ; "
        "N trace(out, <tracer>, <b>, {tcs_puppet,block,0}, #{}) ... N enabled(in, <tracer>, <b>) -> trace ; "
        "N trace(in, <tracer>, <b>, {tcs_puppet,block,0}, #{})\n"
        "A close w2\n");
}

static void test_mailbox(int *failures)
{
    /* 16 messages fill the first mailbox block; after one recv the 17th forces a move */
    Buf t;
    buf_init(&t);
    buf_puts(&t, H);
    for (int i = 1; i <= 16; i++)
        buf_printf(&t, "a send b %d\n", i);
    buf_puts(&t, "b recv\na send b 17\na send b 18\n");
    for (int i = 2; i <= 18; i++)
        buf_puts(&t, "b recv\n");
    sim(failures, buf_str(&t), "");
    buf_puts(&t, "b recv\nb recv\n"); /* line 6 + 16 + 3 + 17 + 2: b blocked in the first */
    sim(failures, buf_str(&t), "ERR 44:1: a step by a process blocked in a receive is not supported by model v1");
    buf_free(&t);
}

static void test_tracers(int *failures)
{
    sim(failures, HDR "tracer erl_msg_tracer\nprocess a b\ntrace a on send procs\na send b hi\na spawn c\n",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[send,procs]) -> 1\n"
        "N enabled(send, <tracer>, <a>) -> trace\n"
        "N trace(send, <tracer>, <a>, hi, #{extra=><b>})\n"
        "N msg(<tracer>, {trace,<a>,<b>})\n"
        "N enabled(spawn, <tracer>, <a>) -> discard\n"); /* the example traces only send/receive */
    sim(failures, H "pattern tcs_target:id/2 true global\npattern tcs_target:nope/1 true global\n"
                    "pattern tcs_target:id/1 [{'_',[],[{message,{tag,42}}]}] global\n",
        "N ctl erlang:trace_pattern({tcs_target,id,2},true,[global]) -> 0\n"
        "N ctl erlang:trace_pattern({tcs_target,nope,1},true,[global]) -> 0\n"
        "N ctl erlang:trace_pattern({tcs_target,id,1},[{'_',[],[{message,{tag,42}}]}],[global]) raises error:badarg\n");
}

/* Ports, scheduling, gc and seq_trace: the refusals, and paths no case of the corpus takes. */
static void test_ports_running_gc_seq(int *failures)
{
    sim(failures, H "a open_port x\ntrace a on running\na recv\nb port_command x <<1>>",
        "ERR 10:1: a port command while the port's owner is blocked is not supported by model v1");
    sim(failures, H "a open_port x\na port_close x\na register n x",
        "ERR 9:14: registering a closed port is not supported by model v1");
    /* a port's links and names: what a port cannot do, and what the model leaves out */
    sim(failures, H "a open_port x\na port_close x\nb link x",
        "ERR 9:8: linking a closed port is not supported by model v1");
    sim(failures, H "a open_port x\na port_close x\nb unlink x",
        "ERR 9:10: unlinking a closed port is not supported by model v1");
    sim(failures, H "a open_port x\na link x", "ERR 8:1: linking an already linked port is not supported by model v1");
    sim(failures, H "a open_port x\nb unlink x",
        "ERR 8:1: unlinking a port that is not linked is not supported by model v1");
    sim(failures, H "a open_port x\na register n x\nb register m x",
        "ERR 9:12: naming a port with a name taken, or a port that has one, is not supported by model v1");
    sim(failures, H "a seq_token label 1\na open_port x",
        "ERR 8:1: this step by a process holding a seq_trace token is not supported by model v1");
    sim(failures, H "trace a on running\na recv after 10", /* RUN-TIMEOUT: one pair at the receive */
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[running]) -> 1\n"
        "N enabled(out, <tracer>, <a>) -> trace\n"
        "N trace(out, <tracer>, <a>, {tcs_puppet,act,1}, #{})\n"
        "N enabled(in, <tracer>, <a>) -> trace\n"
        "N trace(in, <tracer>, <a>, {tcs_puppet,act,1}, #{})\n");
    sim(failures, H "trace a on exiting\na recv after 10",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[exiting]) -> 1\n");
    /* a send or receive pattern the model cannot run stops it at the event's step; a port's own
     * receive never runs the 'receive' pattern (MSGPAT-PORT-RECEIVE: msgpat_port_send_unfiltered) */
    const char *overflow = "[{'_',[{'>',{'bsl',2,2000000},0}],[]}]";
    const char *after[] = {"a open_port x\na port_send x <<1>>", "a send b m\nb recv"};
    const char *pats[] = {"send", "'receive'"};
    const char *where[] = {"12:1", "11:1"};  /* a receive is traced when the message is queued */
    for (int i = 0; i < 2; i++) {
        char text[600], want[200];
        snprintf(text, sizeof text, H "trace new_ports on send\ntrace a on send\ntrace b on 'receive'\n"
                 "pattern %s %s\n%s", pats[i], overflow, after[i]);
        snprintf(want, sizeof want, "ERR %s: integer arithmetic beyond 2^20 bits in a match spec is not supported "
                 "by model v1", where[i]);
        sim(failures, text, want);
    }
    sim(failures, H "a open_port x\na port_close x\na port_command x <<1>>",
        "ERR 9:16: a step on a closed port is not supported by model v1");
    /* a port closing with a reason kills its linked processes, and what they are linked to */
    sim(failures, H "a open_port x\nb link x\nc link x\nb link c\ntrace c on procs\na exit boom",
        "I enabled(trace_status, <tracer>, <c>) -> trace\n"
        "N ctl erlang:trace(<c>,true,[procs]) -> 1\n"
        "N enabled(exit, <tracer>, <c>) -> trace\n"
        "N trace(exit, <tracer>, <c>, boom, #{})\n");
    /* seq_trace: no token, no tracer; flags switched off again; a receive without the tracer */
    sim(failures, H "seq_trace tracer\na seq_print nothing\na seq_token timestamp true\n"
                    "a seq_token timestamp false\na seq_token print true\na seq_print p",
        "I enabled(trace_status, <tracer>, undefined) -> trace\n"
        "N ctl seq_trace:set_system_tracer(<tracer>) -> false\n"
        "N enabled(seq_trace, <tracer>, <a>) -> trace\n"
        "N enabled(seq_trace, <tracer>, <a>) -> trace\n"
        "N trace(seq_trace, <tracer>, 0, {print,{0,1},<a>,[],p}, #{})\n");
    sim(failures, H "a seq_token 'receive' true\na send b m\nb recv\nseq_trace tracer\nb send a n\na recv",
        "I enabled(trace_status, <tracer>, undefined) -> trace\n"
        "N ctl seq_trace:set_system_tracer(<tracer>) -> false\n"
        "N enabled(seq_trace, <tracer>, <b>) -> trace\n"
        "N enabled(seq_trace, <tracer>, <b>) -> trace\n"
        "N enabled(seq_trace, <tracer>, <a>) -> trace\n"
        "N trace(seq_trace, <tracer>, 0, {'receive',{1,2},<b>,<a>,n}, #{})\n");
}

/* How many lines of stream contain needle. */
static int count_lines(const char *stream, const char *needle)
{
    int n = 0;
    for (const char *l = stream; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        const char *hit = strstr(l, needle);
        n += hit && hit < l + len;
        l += len + (nl ? 1 : 0);
    }
    return n;
}

/* No fixed cap on processes, links or sessions (issue 10, "Model limits"): 10 sessions trace a
 * process that spawns and links 300 processes, then exits and takes them all with it. */
static void test_large(int *failures)
{
    enum { SESSIONS = 10, SPAWNED = 300 };
    Buf text;
    buf_init(&text);
    buf_puts(&text, "case x\nrules A\ndesc \"d\"\notp 27\ntracer recorder\n");
    for (int k = 0; k < SESSIONS; k++)
        buf_printf(&text, "session s%02d tracer recorder\n", k);
    buf_puts(&text, "process a\n");
    for (int k = 0; k < SESSIONS; k++)
        buf_printf(&text, "create s%02d\ntrace s%02d a on procs\n", k, k);
    for (int i = 0; i < SPAWNED; i++)
        buf_printf(&text, "a spawn_link q%03d\n", i);
    for (int k = 0; k < SESSIONS; k++) /* the 300th process, traced by every session */
        buf_printf(&text, "trace s%02d q%03d on procs\n", k, SPAWNED - 1);
    buf_puts(&text, "a exit kill\n");
    Buf got;
    buf_init(&got);
    sim_stream(failures, buf_str(&text), false, &got);
    const char *out = buf_str(&got);
    CHECK(strncmp(out, "ERR", 3) != 0 && strncmp(out, "PARSE", 5) != 0);
    /* every session sees every spawn and link of a, and a's exit */
    CHECK(count_lines(out, "N trace(spawn, <s") == SESSIONS * SPAWNED);
    CHECK(count_lines(out, "N trace(link, <s") == SESSIONS * SPAWNED);
    CHECK(count_lines(out, ", <a>, kill, #{})") == SESSIONS);
    /* the 300th process: linked to a, it exits with a, seen by each session, the last
     * attached first (SESSION-ORDER-PROCESS); no other process exit is traced */
    CHECK(count_lines(out, "N trace(exit, <s") == 2 * SESSIONS);
    const char *at = out;
    for (int k = SESSIONS - 1; k >= 0 && at; k--) {
        char want[80];
        snprintf(want, sizeof want, "N trace(exit, <s%02d>, <q%03d>, kill, #{})\n", k, SPAWNED - 1);
        at = strstr(at, want);
        CHECK(at != NULL);
    }
    buf_free(&got);
    buf_free(&text);
}

/* An exit cascade along a chain of 100,000 links runs without recursion (it would overflow the C
 * stack): the last process of the chain, the only one traced, exits with the first one's reason. */
static void test_long_chain(int *failures)
{
    enum { CHAIN = 100000 };
    Buf text;
    buf_init(&text);
    buf_puts(&text, "case x\nrules A\ndesc \"d\"\notp 27\ntracer recorder\nprocess a\n");
    for (int i = 0; i < CHAIN; i++)
        buf_printf(&text, i ? "q%06d spawn_link q%06d\n" : "a spawn_link q%06d\n", i ? i - 1 : i, i);
    buf_printf(&text, "trace q%06d on procs\na exit kill\n", CHAIN - 1);
    Buf got;
    buf_init(&got);
    sim_stream(failures, buf_str(&text), false, &got);
    char want[80];
    snprintf(want, sizeof want, "N trace(exit, <tracer>, <q%06d>, kill, #{})\n", CHAIN - 1);
    CHECK(count_lines(buf_str(&got), "N trace(") == 1);
    CHECK(strstr(buf_str(&got), want) != NULL);
    buf_free(&got);
    buf_free(&text);
}

/* A port's send runs no send spec at all (C-85), so a spec with trace flag functions traces the
 * port's send as if the pattern were true (a meta pattern's untraced caller: MS-TRACE-FLAGS-META);
 * tracing started on the port probes nothing (PORTS-NO-START-PROBE). */
static void test_ms_trace_flags_port_send(int *failures)
{
    sim(failures, H "a open_port x\ntrace x on send\npattern send [{'_',[],[{enable_trace,send}]}]\n"
                    "a port_command x <<\"hi\">>",
        "N ctl erlang:trace(<port:x>,true,[send]) -> 1\n"
        "N ctl erlang:trace_pattern(send,[{'_',[],[{enable_trace,send}]}],[]) -> 1\n"
        "N enabled(send, <tracer>, <port:x>) -> trace\n"
        "N trace(send, <tracer>, <port:x>, {<port:x>,{data,<<104,105>>}}, #{extra=><a>})\n");
}

/* A load after `tracer unload` makes no old code, so the next one is accepted and only the third
 * is not_purged (TRACER-RELOAD-AFTER-UNLOAD); with `tracer process` erlang:trace_info/2 names
 * the meta tracer as that process (STATUS-INFO-META). Seed 20261201, groups V2 and V7. */
static void test_reload_after_unload_and_meta_process(int *failures)
{
    sim(failures, H "tracer unload\ntracer reload\ntracer reload\ntracer reload",
        "N ctl code:delete(recorder) -> true\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "N ctl code:load_file(recorder) -> {error,not_purged}\n");
    sim(failures, HDR "tracer process\nprocess a\npattern tcs_target:catcher/1 true meta\n"
                      "info {tcs_target,catcher,1} meta",
        "N ctl erlang:trace_pattern({tcs_target,catcher,1},true,[meta]) -> 1\n"
        "N ctl erlang:trace_info({tcs_target,catcher,1},meta) -> {meta,<tracer>}\n");
    sim(failures, H "pattern tcs_target:catcher/1 true meta\ninfo {tcs_target,catcher,1} meta",
        "N ctl erlang:trace_pattern({tcs_target,catcher,1},true,[meta]) -> 1\n"
        "N ctl erlang:trace_info({tcs_target,catcher,1},meta) -> {meta,{tcs_recorder,<meta>}}\n");
}

/* PORTS-TIMEOUT-CALLBACKS: a driver port's timer timeout is a ports tracepoint (erts trace_port),
 * asked of enabled_ports and reported to trace_ports, its control request a receive one; with
 * enabled_receive alone, the timeout falls back to enabled (seed 20261201 group V3). */
static void test_driver_timeout_ports_callbacks(int *failures)
{
    const char *steps = "process a b\na open_port x driver\ntrace x on 'receive'\nb port_control x timer 0";
    char text[512];
    snprintf(text, sizeof text, HDR "tracer recorder\ncallbacks enabled_receive trace_receive enabled_ports "
             "trace_ports\n%s", steps);
    sim(failures, text,
        "N ctl erlang:trace(<port:x>,true,['receive']) -> 1\n"
        "N enabled_receive('receive', <tracer>, <port:x>) -> trace\n"
        "N trace_receive('receive', <tracer>, <port:x>, {<b>,{control,{3,<<48>>}}}, #{})\n"
        "N enabled_ports('receive', <tracer>, <port:x>) -> trace\n"
        "N trace_ports('receive', <tracer>, <port:x>, timeout, #{})\n");
    snprintf(text, sizeof text, HDR "tracer recorder\ncallbacks enabled_receive\n%s", steps);
    sim(failures, text,
        "N ctl erlang:trace(<port:x>,true,['receive']) -> 1\n"
        "N enabled_receive('receive', <tracer>, <port:x>) -> trace\n"
        "N trace('receive', <tracer>, <port:x>, {<b>,{control,{3,<<48>>}}}, #{})\n"
        "N enabled('receive', <tracer>, <port:x>) -> trace\n"
        "N trace('receive', <tracer>, <port:x>, timeout, #{})\n");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_unsupported(failures);
    test_together(failures);
    test_ms_trace_flags_port_send(failures);
    test_reload_after_unload_and_meta_process(failures);
    test_driver_timeout_ports_callbacks(failures);
    test_links(failures);
    test_mailbox(failures);
    test_tracers(failures);
    test_large(failures);
    test_long_chain(failures);
    test_ports_running_gc_seq(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
