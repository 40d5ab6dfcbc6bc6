/* test_counters.c - the call counters of function patterns (ref/events/counters.c,
 * ref/harness/fninfo.c): their plan, the rules of their control lines, the order of a
 * call_time list, a match spec beside local, and what a global pattern does to them; the
 * corpus (cases/counters/) checks the same against OTP 25, 27 and 29. */
#include "plan.h"
#include "sim.h"

#define HDR26 "case x\nrules A\ndesc \"d\"\notp 26\n"
#define H HDR26 "tracer recorder\nprocess a b\n" /* steps start on line 7 */

static void test_plan(int *failures)
{
    static const char *const want[] = {"{step, 1, {pattern, {tcs_target,id,1}, pause, [call_count]}}.\n",
                                       "{step, 2, {info, {tcs_target, id, 1}, call_count}}.\n", NULL};
    sim_plan_has(failures, H "pattern tcs_target:id/1 pause call_count\ninfo {tcs_target,id,1} call_count", want);
}

static void test_rules(int *failures)
{
    sim_as(failures, H "pattern tcs_target:id/1 restart call_count call_time\n"
                       "info {tcs_target,id,1} call_count",
           true,
           "N ctl erlang:trace_pattern({tcs_target,id,1},restart,[call_count,call_time]) -> 1"
           "  % CTL-PATTERN CALL-PATTERN-COUNT CALL-COUNTERS-RESTART\n"
           "N ctl erlang:trace_info({tcs_target,id,1},call_count) -> {call_count,false}"
           "  % STATUS-INFO CALL-COUNTERS-INFO\n");
}

static void test_values(int *failures)
{
    /* the entries in the order of the printed pids: <a1> before <a> ('1' < '>') */
    sim(failures, HDR26 "tracer recorder\nprocess a a1\ntrace a on call\ntrace a1 on call\n"
                      "pattern tcs_target:id/1 true call_time\na call tcs_target:id(1)\na1 call tcs_target:id(2)\n"
                      "a call tcs_target:id(3)\ninfo {tcs_target,id,1} call_time",
        "I enabled(trace_status, <tracer>, <a>) -> trace\nN ctl erlang:trace(<a>,true,[call]) -> 1\n"
        "I enabled(trace_status, <tracer>, <a1>) -> trace\nN ctl erlang:trace(<a1>,true,[call]) -> 1\n"
        "N ctl erlang:trace_pattern({tcs_target,id,1},true,[call_time]) -> 1\n"
        "N ctl erlang:trace_info({tcs_target,id,1},call_time) -> "
        "{call_time,[{<a1>,1,_Seconds,_Microseconds},{<a>,2,_Seconds,_Microseconds}]}\n");
    /* a counter of a function whose module is not loaded: undefined; a match spec with local */
    sim(failures, H "info {tcs_late,id,1} call_count\n"
                    "pattern tcs_target:id/1 [{'_',[],[]}] local call_count\ninfo {tcs_target,id,1} all",
        "N ctl erlang:trace_info({tcs_late,id,1},call_count) -> {call_count,undefined}\n"
        "N ctl erlang:trace_pattern({tcs_target,id,1},[{'_',[],[]}],[local,call_count]) -> 1\n"
        "N ctl erlang:trace_info({tcs_target,id,1},all) -> {all,[{traced,local},{match_spec,[{'_',[],[]}]},"
        "{meta,false},{meta_match_spec,false},{call_memory,false},{call_time,false},{call_count,0}]}\n");
    /* a wildcard target sets the counters of every function it matches */
    sim(failures, H "pattern tcs_target:'_'/'_' true call_count\nb call tcs_target:deep(1)\n"
                    "info {tcs_target,inner,1} call_count\ninfo {tcs_target,id,1} call_count",
        "N ctl erlang:trace_pattern({tcs_target,'_','_'},true,[call_count]) -> 13\n"
        "N ctl erlang:trace_info({tcs_target,inner,1},call_count) -> {call_count,1}\n"
        "N ctl erlang:trace_info({tcs_target,id,1},call_count) -> {call_count,1}\n");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_plan(failures);
    test_rules(failures);
    test_values(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
