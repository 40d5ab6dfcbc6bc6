/* test_badcalls.c - the calls of module trace with arguments of another node, atomics and strings
 * (`apply`, ref/harness/badcalls.c, C-280), and the tracer module reloaded while its tracee is
 * busy (`tracer reload while`, ref/harness/busyreload.c, C-281): parser, model and plan. */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"

#undef HDR
#define HDR "case x\nrules A\ndesc \"d\"\notp 27\n"
/* a recorder session; steps start on line 9, after `create sa` on line 8 */
#define H HDR "tracer recorder\nsession sa tracer recorder\nprocess a\ncreate sa\n"
#define CREATED "N ctl trace:session_create(sa,{recorder,<sa>},[]) -> {_Ref,{sa,_Id}}\n"
#define RAISES " raises error:badarg error_info "

/* Each call raises badarg with the error_info OTP 27 and 29 give (seen live, C-280). */
static void test_raises(int *failures)
{
    static const struct { const char *step, *line; } calls[] = {
        {"apply trace:process(sa, external_pid(), true, [])",
         "trace:process({_Ref,{sa,_Id}},<ext:pid>,true,[])" RAISES "#{module=>erl_kernel_errors} explains [2]"},
        {"apply trace:process(sa, \"a\", true, [send])",
         "trace:process({_Ref,{sa,_Id}},[97],true,[send])" RAISES "#{module=>erl_kernel_errors} explains [2]"},
        {"apply trace:process(sa, <a>, true, [send, bad_flag])",
         "trace:process({_Ref,{sa,_Id}},<a>,true,[send,bad_flag])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        /* a pid of this node: the flag list once How is a boolean, alive or not (C-320) */
        {"apply trace:process(sa, <a>, true, notalist)",
         "trace:process({_Ref,{sa,_Id}},<a>,true,notalist)" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:process(sa, <a>, false, [send|'receive'])",
         "trace:process({_Ref,{sa,_Id}},<a>,false,[send|'receive'])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:process(sa, <a>, true, [send,{silent,true}])",
         "trace:process({_Ref,{sa,_Id}},<a>,true,[send,{silent,true}])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:process(sa, <sa>, true, [bad_flag])",
         "trace:process({_Ref,{sa,_Id}},<sa>,true,[bad_flag])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:process(sa, <a>, sometimes, [send])",
         "trace:process({_Ref,{sa,_Id}},<a>,sometimes,[send])" RAISES "#{module=>erl_kernel_errors} explains [3]"},
        /* ... and its session before anything about a pid (C-320) */
        {"apply trace:process(term(atomics:new(1,[])), <a>, sometimes, [bad_flag])",
         "trace:process(_Ref,<a>,sometimes,[bad_flag])" RAISES "#{cause=>session,module=>erl_kernel_errors} explains [1]"},
        {"apply trace:process(term(atomics:new(1,[])), external_pid(), true, [])",
         "trace:process(_Ref,<ext:pid>,true,[])" RAISES "#{cause=>session,module=>erl_kernel_errors} explains [1]"},
        /* another node's pid or port with bad flags: both explained, cause badopt (C-321) */
        {"apply trace:port(sa, external_port(), true, [send,bad_flag])",
         "trace:port({_Ref,{sa,_Id}},<ext:port>,true,[send,bad_flag])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [2,4]"},
        {"apply trace:process(sa, external_pid(), false, notalist)",
         "trace:process({_Ref,{sa,_Id}},<ext:pid>,false,notalist)" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [2,4]"},
        {"apply trace:process(sa, \"a\", true, [bogus])",
         "trace:process({_Ref,{sa,_Id}},[97],true,[bogus])" RAISES "#{module=>erl_kernel_errors} explains [2]"},
        /* the options are read before the match spec (C-321) */
        {"apply trace:function(sa, a, [{'_',[],[]}], [call_time,global])",
         "trace:function({_Ref,{sa,_Id}},a,[{'_',[],[]}],[call_time,global])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:function(sa, a, true, [meta,global])",
         "trace:function({_Ref,{sa,_Id}},a,true,[meta,global])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:send(sa, false, x)",
         "trace:send({_Ref,{sa,_Id}},false,x)" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [3]"},
        {"apply trace:recv(sa, true, [a|b])",
         "trace:recv({_Ref,{sa,_Id}},true,[a|b])" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [3]"},
        {"apply trace:process(sa, 7, sometimes, [])",
         "trace:process({_Ref,{sa,_Id}},7,sometimes,[])" RAISES "#{module=>erl_kernel_errors} explains [3]"},
        {"apply trace:port(sa, external_port(), true, [])",
         "trace:port({_Ref,{sa,_Id}},<ext:port>,true,[])" RAISES "#{module=>erl_kernel_errors} explains [2]"},
        {"apply trace:port(sa, <a>, true, bad_flags)",
         "trace:port({_Ref,{sa,_Id}},<a>,true,bad_flags)" RAISES "#{module=>erl_kernel_errors} explains [2]"},
        {"apply trace:port(sa, <a>, not_boolean, [])",
         "trace:port({_Ref,{sa,_Id}},<a>,not_boolean,[])" RAISES "#{module=>erl_kernel_errors} explains [3]"},
        {"apply trace:function(sa, a, true, [])",
         "trace:function({_Ref,{sa,_Id}},a,true,[])" RAISES "#{cause=>none,module=>erl_kernel_errors} explains [2]"},
        {"apply trace:function(sa, a, true, [local|meta])",
         "trace:function({_Ref,{sa,_Id}},a,true,[local|meta])" RAISES
         "#{cause=>badopt,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:function(sa, a, [{'_',[],[]}], [call_time])",
         "trace:function({_Ref,{sa,_Id}},a,[{'_',[],[]}],[call_time])" RAISES
         "#{cause=>call_count,module=>erl_kernel_errors} explains [4]"},
        {"apply trace:info(sa, external_port(), tracer)",
         "trace:info({_Ref,{sa,_Id}},<ext:port>,tracer)" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [2]"},
        {"apply trace:info(term(atomics:new(1,[])), <a>, flags)",
         "trace:info(_Ref,<a>,flags)" RAISES "#{cause=>session,module=>erl_kernel_errors} explains [1]"},
        {"apply trace:session_create(\"n\", <a>, [])",
         "trace:session_create([110],<a>,[])" RAISES "#{module=>erl_kernel_errors} explains [1]"},
        {"apply trace:session_create(n, {7,s}, [])",
         "trace:session_create(n,{7,s},[])" RAISES "#{module=>erl_kernel_errors} explains [2]"},
        {"apply trace:session_destroy(term(atomics:new(1,[])))",
         "trace:session_destroy(_Ref)" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [1]"},
        {"apply trace:session_info(external_pid())",
         "trace:session_info(<ext:pid>)" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [1]"},
        {"apply trace:session_info(\"x\")",
         "trace:session_info([120])" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [1]"},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        Buf text, want;
        buf_init(&text);
        buf_init(&want);
        buf_printf(&text, H "%s\n", calls[i].step);
        buf_printf(&want, CREATED "N ctl %s\n", calls[i].line);
        sim(failures, buf_str(&text), buf_str(&want));
        buf_free(&text);
        buf_free(&want);
    }
}

/* session_destroy/1 through apply is the destroy step: true, then false for the strong handle of
 * the destroyed session (erl_bif_trace.c keeps it alive; fuzz group X1), badarg for a weak one. */
static void test_destroy(int *failures)
{
    sim(failures, H "apply trace:session_destroy(sa)\napply trace:session_destroy(sa)\n"
                    "apply trace:session_destroy(weak(sa))\n",
        CREATED "N ctl trace:session_destroy({_Ref,{sa,_Id}}) -> true\n"
        "N ctl trace:session_destroy({_Ref,{sa,_Id}}) -> false\n"
        "N ctl trace:session_destroy({sa,_Id})" RAISES "#{cause=>badopt,module=>erl_kernel_errors} explains [1]\n");
}

/* What the model does not predict: a call that succeeds, or two bad arguments it cannot order. */
static void test_refused(int *failures)
{
    sim(failures, H "apply trace:process(sa, <a>, true, [])\n",
        "ERR 9:1: "
        "apply of a process/4 call of a process of the case with a boolean How and trace flags (write it as a trace step) is"
        " not supported by model v1");
    sim(failures, H "apply trace:process(sa, <a>, sometimes, notalist)\n",
        "ERR 9:1: a process/4 call with a How that is no boolean and a bad flag list (two arguments explained) is"
        " not supported by model v1");
    sim(failures, H "apply trace:process(sa, <sa>, true, [send])\n",
        "ERR 9:1: a process/4 call that sets trace flags on a tracer state process is not supported by model v1");
    sim(failures, H "apply trace:process(sa, external_pid(), 1, [])\n",
        "ERR 9:1: a tracee of another node with a How that is no boolean (two arguments explained) is not "
        "supported by model v1");
    sim(failures, H "apply trace:function(sa, a, true, [local,local,local,local,local,local,local,local,local,local,"
                      "local,local,local,local,local,local,local,local,local,local,local,local,local,local,local,"
                      "local,local,local,local,local,local,local,local])\n",
        "ERR 9:1: an option list longer than a pattern step's is not supported by model v1");
    sim(failures, H "apply trace:process(term(x), \"a\", true, [])\n",
        "ERR 9:1: a session that is no live handle beside another bad argument is not supported by model v1");
    sim(failures, H "apply trace:function(sa, {m,f,1}, true, [])\n",
        "ERR 9:1: apply of a function/4 call with a valid MFA (write it as a pattern step) is not supported by "
        "model v1");
    sim(failures, H "apply trace:function(sa, a, true, [x])\n",
        "ERR 9:1: an option list with an option function/4 refuses (write it as a pattern step) is not "
        "supported by model v1");
    sim(failures, H "apply trace:function(sa, a, [{'_',[],[{bogus}]}], [])\n",
        "ERR 9:1: this match spec in apply is not supported by model v1");
    sim(failures, H "apply trace:info(sa, <a>, flags)\n",
        "ERR 9:1: apply of this trace:info/3 call (write it as an info step) is not supported by model v1");
    sim(failures, H "apply trace:session_create(n, <a>, [])\n",
        "ERR 9:1: apply of a session_create/3 call that does not raise (declare the session) is not supported "
        "by model v1");
    sim(failures, H "apply trace:session_create(\"n\", x, [])\n",
        "ERR 9:1: session_create/3 with a bad name and a bad tracer (two arguments explained) is not supported "
        "by model v1");
    sim(failures, H "apply trace:session_create(n, x, [y])\n",
        "ERR 9:1: apply of session_create/3 with Opts (write it as a create step) is not supported by model v1");
    sim(failures, H "apply trace:send(sa, true, [])\n",
        "ERR 9:1: apply of this trace:send/3 or trace:recv/3 call (write it as a pattern step) is not supported "
        "by model v1");
    sim(failures, H "apply trace:session_info(all)\n",
        "ERR 9:1: apply of this trace:session_info/1 call (write it as a session_info step) is not supported by "
        "model v1");
}

/* Bad apply steps name the place. */
static void test_parse_errors(int *failures)
{
    sim(failures, H "apply process(sa)\n", "PARSE 9:7: expected trace:FUNCTION(ARGS) after 'apply'");
    sim(failures, H "apply trace:delivered(sa, <a>)\n",
        "PARSE 9:13: apply calls one of trace:process/4, port/4, function/4, send/3, recv/3, info/3, "
        "session_create/3, session_destroy/1, session_info/1");
    sim(failures, H "apply trace:info sa\n", "PARSE 9:17: expected '(' after trace:info");
    sim(failures, H "apply trace:info(sa, <a>)\n", "PARSE 9:25: trace:info/3 takes 3 arguments");
    sim(failures, H "apply trace:info(sa, <a>, flags, x)\n", "PARSE 9:32: trace:info/3 takes 3 arguments");
    sim(failures, H "apply trace:info(zz, <a>, flags)\n", "PARSE 9:18: unknown session 'zz'");
    sim(failures, HDR "tracer recorder\nprocess a apply\n", "PARSE 6:11: 'apply' is reserved for the harness's step");
    sim(failures, H "apply trace:process(sa, new, true, [])\n",
        "PARSE 9:25: a process or port spec is written as a trace step (trace SESSION new on ...)");
    sim(failures, H "a send a external_pid()\n",
        "PARSE 9:10: external_pid(), external_port() and atomics:new(1,[]) may appear only in an apply step, "
        "a session's term(...) or a tracer state (model v1)");
}

/* The plan carries the call as written: {call, Ref | none, Fn, Args}. */
static void test_plan(int *failures)
{
    const char *const want[] = {
        "{session, {call, sa, process, [{'$tcs_external', pid}, true, []]}}",
        "{session, {call, {weak, sa}, info, [{'$tcs_external', port}, flags]}}",
        "{session, {call, {term, {'$tcs_atomics'}}, session_destroy, []}}",
        "{session, {call, none, session_info, [[120]]}}",
        NULL,
    };
    sim_plan_has(failures, H "apply trace:process(sa, external_pid(), true, [])\n"
                             "apply trace:info(weak(sa), external_port(), flags)\n"
                             "apply trace:session_destroy(term(atomics:new(1,[])))\n"
                             "apply trace:session_info(\"x\")\n", want);
}

#undef H
#define RH "case x\nrules A\ndesc \"d\"\notp 25\ntracer recorder\nprocess a b\n" \
           "trace a on call\npattern tcs_target:id/1 []\na call tcs_target:id(0)\n"

/* One round of reload/1 with a busy tracee: its first call, a window of the others (calls made in the
 * state the first left) around the reload, an either-or of trace_info, the delete; its tracer gone after
 * (TRACER-RELOAD-BUSY, C-281). */
static void test_reload_busy(int *failures)
{
    sim(failures, RH "tracer reload while a calls tcs_target:id(1)\ninfo a tracer\n",
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace(<a>,true,[call]) -> 1\n"
        "N ctl erlang:trace_pattern({tcs_target,id,1},[],[]) -> 1\n"
        "N enabled(call, <tracer>, <a>) -> trace\n"
        "N trace(call, <tracer>, <a>, {tcs_target,id,[0]}, #{})\n"
        "N enabled(call, <tracer>, <a>) -> trace\n"
        "N trace(call, <tracer>, <a>, {tcs_target,id,[1]}, #{})\n"
        "A open w1 TRACER-RELOAD-BUSY 0..*: N enabled(call, <tracer>, <a>) -> trace ; "
        "N trace(call, <tracer>, <a>, {tcs_target,id,[1]}, #{})\n"
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "A either w2 TRACER-RELOAD-RACE\n"
        "I enabled(trace_status, <tracer>, <a>) -> trace\n"
        "N ctl erlang:trace_info(<a>,tracer) -> {tracer,{tcs_recorder,<tracer>}}\n"
        "A or w2\n"
        "N ctl erlang:trace_info(<a>,tracer) -> {tracer,[]}\n"
        "A end w2\n"
        "N ctl code:delete(recorder) -> true\n"
        "A close w1\n"
        "N ctl erlang:trace_info(<a>,tracer) -> {tracer,[]}\n");
    /* an untraced loop: no window, the either-or's alternatives alike */
    sim(failures, HDR "tracer recorder\nprocess a\na call tcs_target:id(0)\ntracer reload while a calls tcs_target:id(1)\n",
        "N ctl code:load_file(recorder) -> {module,recorder}\n"
        "N ctl erlang:trace_info(<a>,tracer) -> {tracer,[]}\n"
        "N ctl code:delete(recorder) -> true\n");
    sim_plan_has(failures, RH "tracer reload while b calls tcs_target:id(1)\n",
                 (const char *const[]){"{tracer_reload_busy, recorder, b, {tcs_target, id, [1]}}", NULL});
    sim(failures, RH "trace a on send\ntracer reload while a calls tcs_target:id(1)\n",
        "ERR 11:21: a busy tracee traced for more than call (its loop would be seen otherwise too) is not "
        "supported by model v1");
    sim(failures, RH "tracer reload while b calls tcs_target:id_local(1)\n",
        "PARSE 10:40: tcs_target:id_local/1 is not supported by model v1 (see cases/README.md, \"The traced "
        "functions\")");
    sim(failures, RH "tracer reload while c calls tcs_target:id(1)\n",
        "PARSE 10:21: expected a process of the case after 'while'");
    sim(failures, RH "tracer reload while a runs tcs_target:id(1)\n",
        "PARSE 10:23: expected 'calls M:F(Args)' after the process");
    sim(failures, RH "tracer reload\ntracer reload while a calls tcs_target:id(1)\n",
        "ERR 11:21: a busy reload while the tracer module is unloaded or its old code is kept is not supported "
        "by model v1");
    sim(failures, RH "b recv\ntracer reload while b calls tcs_target:id(1)\n",
        "ERR 11:21: a busy tracee that is no idle process of the case is not supported by model v1");
    sim(failures, RH "tracer reload while a calls tcs_late:id(1)\n",
        "ERR 10:21: a busy loop that loads its module, or under a '_':'_'/'_' pattern, is not supported by "
        "model v1");
    sim(failures, RH "pattern tcs_target:id/1 true call_count\ntracer reload while a calls tcs_target:id(1)\n",
        "ERR 11:21: a busy loop's function with a meta pattern or counters is not supported by model v1");
    sim(failures, RH "pattern tcs_target:id/1 [{'_',[],[{message,x}]}]\ntracer reload while a calls tcs_target:id(1)\n",
        "ERR 11:21: a busy loop's function with a match spec is not supported by model v1");
}

int main(void)
{
    int failures = 0;
    test_raises(&failures);
    test_destroy(&failures);
    test_refused(&failures);
    test_parse_errors(&failures);
    test_plan(&failures);
    test_reload_busy(&failures);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
