/* test_msgpat.c - the send and 'receive' patterns (ref/harness/msgpatterns.c): the parse of a
 * message pattern step, its plan, its control line and rules, and the events it decides;
 * the corpus (cases/msgpatterns/msgpat_*) checks the same against OTP 25. */
#include "plan.h"
#include "sim.h"

#define H HDR "tracer recorder\nprocess a b\n" /* steps start on line 7 */

static void test_parse(int *failures)
{
    /* restart and any option are a case's business for message patterns: badarg */
    sim(failures, H "pattern send restart\npattern 'receive' pause global",
        "N ctl erlang:trace_pattern(send,restart,[]) raises error:badarg\n"
        "N ctl erlang:trace_pattern('receive',pause,[global]) raises error:badarg\n");
    /* the meta refusal of C-10 and the count options only concern function patterns */
    sim(failures, HDR "tracer recorder\ncallbacks trace_call\nprocess a\npattern send true meta call_count",
        "N ctl erlang:trace_pattern(send,true,[meta,call_count]) raises error:badarg\n");
    sim(failures, H "pattern tcs_target:id/1 restart",
        "PARSE 7:25: 'restart' without call_count, call_time or call_memory (undefined in 003, function/4) "
        "is not supported by model v1");
    sim(failures, H "pattern send:id/1 true",
        "PARSE 7:9: module 'send' is not supported by model v1 (tcs_target, tcs_late, tcs_nif, tcs_shapes, '_', or the library "
        "targets erlang:phash2/1, erlang:apply/2 and lists:seq/2)");
    /* valid for send but not run by the model; refused (badarg) for 'receive' */
    sim(failures, H "pattern send [{'_',[],[{set_seq_token,label,1}]}]",
        "PARSE 7:14: match spec function set_seq_token/2 is not supported by model v1");
    sim(failures, H "pattern 'receive' [{'_',[],[{process_dump}]}]",
        "N ctl erlang:trace_pattern('receive',[{'_',[],[{process_dump}]}],[]) raises error:badarg\n");
}

static void test_plan(int *failures)
{
    static const char *const want[] = {"{step, 1, {pattern, 'receive', false, []}}.\n",
                                       "{step, 2, {pattern, send, [], [local]}}.\n", NULL};
    sim_plan_has(failures, H "pattern 'receive' false\npattern send [] local", want);
}

static void test_control_rules(int *failures)
{
    /* every reason for a badarg is named (foo is an option erts does not read: MSGPAT-BAD-OPTION,
     * global one it reads); a badarg changes nothing, so no MSGPAT-REPLACE later */
    sim_as(failures, H "pattern send restart foo\npattern send [{x,[],[]}] global\npattern send false\n"
                       "pattern send [{'_',[],[]}]\npattern send []",
           true,
           "N ctl erlang:trace_pattern(send,restart,[foo]) raises error:badarg  "
           "% CTL-PATTERN MSGPAT-BADARG MSGPAT-NO-RESTART MSGPAT-NO-OPTIONS MSGPAT-BAD-OPTION\n"
           "N ctl erlang:trace_pattern(send,[{x,[],[]}],[global]) raises error:badarg  "
           "% CTL-PATTERN MSGPAT-BADARG MS-HEAD MSGPAT-NO-OPTIONS\n"
           "N ctl erlang:trace_pattern(send,false,[]) -> 1  % CTL-PATTERN MSGPAT-SET MSGPAT-FALSE\n"
           "N ctl erlang:trace_pattern(send,[{'_',[],[]}],[]) -> 1  "
           "% CTL-PATTERN MSGPAT-SET MSGPAT-MATCH-SPEC MSGPAT-REPLACE\n"
           "N ctl erlang:trace_pattern(send,[],[]) -> 1  % CTL-PATTERN MSGPAT-SET MSGPAT-TRUE MS-EMPTY MSGPAT-REPLACE\n");
}

static void test_events(int *failures)
{
    /* what decides that nothing happens is told by --explain in a "% decided" comment line: a
     * dropped send asks no callback (MSGPAT-BEFORE-ENABLED); without --explain the line is not there */
    static const char *const dropped = H "trace a on send\npattern send [{['_',x],[],[]}]\npattern 'receive' true\n"
                                         "a send b y";
    sim_as(failures, dropped, true,
           "I enabled(trace_status, <tracer>, <a>) -> trace  % STATUS-PROBE\n"
           "N ctl erlang:trace(<a>,true,[send]) -> 1  % CTL-TRACE\n"
           "N ctl erlang:trace_pattern(send,[{['_',x],[],[]}],[]) -> 1  % CTL-PATTERN MSGPAT-SET MSGPAT-MATCH-SPEC\n"
           "N ctl erlang:trace_pattern('receive',true,[]) -> 1  % CTL-PATTERN MSGPAT-SET MSGPAT-TRUE MSGPAT-SEPARATE\n"
           "% decided MSGPAT-BEFORE-ENABLED\n");
    sim(failures, dropped,
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[send]) -> 1\n"
        "N ctl erlang:trace_pattern(send,[{['_',x],[],[]}],[]) -> 1\n"
        "N ctl erlang:trace_pattern('receive',true,[]) -> 1\n");
    /* the default pattern adds no rule; an explicit true names MSGPAT-TRUE */
    sim_as(failures, H "trace a on send\na send b x\npattern send true\na send b y", true,
           "I enabled(trace_status, <tracer>, <a>) -> trace  % STATUS-PROBE\n"
           "N ctl erlang:trace(<a>,true,[send]) -> 1  % CTL-TRACE\n"
           "N enabled(send, <tracer>, <a>) -> trace  % FALLBACK-CATEGORY FALLBACK-ENABLED EV-SEND CTL-TRACE\n"
           "N trace(send, <tracer>, <a>, x, #{extra=><b>})  "
           "% FALLBACK-CATEGORY FALLBACK-TRACE ENABLED-TRACE EV-SEND CTL-TRACE OPTS-ONLY-SET OPTS-EXTRA\n"
           "N ctl erlang:trace_pattern(send,true,[]) -> 1  % CTL-PATTERN MSGPAT-SET MSGPAT-TRUE\n"
           "N enabled(send, <tracer>, <a>) -> trace  % FALLBACK-CATEGORY FALLBACK-ENABLED EV-SEND MSGPAT-TRUE CTL-TRACE\n"
           "N trace(send, <tracer>, <a>, y, #{extra=><b>})  "
           "% FALLBACK-CATEGORY FALLBACK-TRACE ENABLED-TRACE EV-SEND MSGPAT-TRUE CTL-TRACE OPTS-ONLY-SET OPTS-EXTRA\n");
    /* a timeout's rules; return_trace in a receive spec names MSGPAT-CALL-ACTIONS */
    sim_as(failures, H "trace b on 'receive'\npattern 'receive' [{[clock_service,'_','_'],[],[{return_trace}]}]\n"
                       "b recv after 0",
           true,
           "I enabled(trace_status, <tracer>, <b>) -> trace  % STATUS-PROBE\n"
           "N ctl erlang:trace(<b>,true,['receive']) -> 1  % CTL-TRACE\n"
           "N ctl erlang:trace_pattern('receive',[{[clock_service,'_','_'],[],[{return_trace}]}],[]) -> 1  "
           "% CTL-PATTERN MSGPAT-SET MSGPAT-MATCH-SPEC\n"
           "N enabled('receive', <tracer>, <b>) -> trace  % FALLBACK-CATEGORY FALLBACK-ENABLED EV-RECEIVE-TIMEOUT "
           "MSGPAT-MATCH-SPEC MSGPAT-RECEIVE-ARGS MSGPAT-TIMEOUT MSGPAT-CALL-ACTIONS CTL-TRACE\n"
           "N trace('receive', <tracer>, <b>, timeout, #{})  % FALLBACK-CATEGORY FALLBACK-TRACE ENABLED-TRACE "
           "EV-RECEIVE-TIMEOUT MSGPAT-MATCH-SPEC MSGPAT-RECEIVE-ARGS MSGPAT-TIMEOUT MSGPAT-CALL-ACTIONS "
           "CTL-TRACE OPTS-ONLY-SET\n");
    /* {silent,false} on a process that is not silent changes nothing; {silent,x} does nothing */
    sim(failures, H "trace a on send\npattern send [{['_',x],[],[{silent,x}]},{'_',[],[{silent,false}]}]\n"
                    "a send b x\na send b y",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[send]) -> 1\n"
        "N ctl erlang:trace_pattern(send,[{['_',x],[],[{silent,x}]},{'_',[],[{silent,false}]}],[]) -> 1\n"
        "N enabled(send, <tracer>, <a>) -> trace\n"
        "N trace(send, <tracer>, <a>, x, #{extra=><b>})\n"
        "N enabled(send, <tracer>, <a>) -> trace\n"
        "N trace(send, <tracer>, <a>, y, #{extra=><b>})\n");
    /* a send to a process that has died: the send spec sees [Receiver, Msg] */
    sim(failures, H "trace a on send\npattern send [{'$1',[],[{message,'$1'}]}]\nb exit normal\na send b late",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[send]) -> 1\n"
        "N ctl erlang:trace_pattern(send,[{'$1',[],[{message,'$1'}]}],[]) -> 1\n"
        "N enabled(send_to_non_existing_process, <tracer>, <a>) -> trace\n"
        "N trace(send_to_non_existing_process, <tracer>, <a>, late, #{extra=><b>,match_spec_result=>[<b>,late]})\n");
}

static void test_unsupported(int *failures)
{
    /* the model cannot compute the match spec: an error at the step, for send and receive */
    sim(failures, H "trace a on send\npattern send [{'_',[],[{message,{'bsl',1,2000000}}]}]\na send b x",
        "ERR 9:1: integer arithmetic beyond 2^20 bits in a match spec is not supported by model v1");
    sim(failures, H "trace b on 'receive'\npattern 'receive' [{'_',[],[{message,{'bsl',1,2000000}}]}]\n"
                    "a send b x",
        "ERR 9:1: integer arithmetic beyond 2^20 bits in a match spec is not supported by model v1");
    sim(failures, H "trace b on 'receive'\npattern 'receive' [{'_',[],[{message,{'bsl',1,2000000}}]}]\n"
                    "b recv after 0",
        "ERR 9:1: integer arithmetic beyond 2^20 bits in a match spec is not supported by model v1");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_parse(failures);
    test_plan(failures);
    test_control_rules(failures);
    test_events(failures);
    test_unsupported(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
