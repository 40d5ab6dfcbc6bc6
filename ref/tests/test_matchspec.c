/* test_matchspec.c - ms_validate on every form, valid, invalid and unsupported; ms_run on
 * heads, guards, bodies and actions. The expected values were checked on OTP 25 with
 * erlang:match_spec_test(Args, MS, trace) (trace_pattern raises badarg where it says error). */
#include "check.h"
#include "matchspec.h"

static Term *parse(Arena *a, const char *src)
{
    Term *t = NULL;
    Err err = {0};
    size_t pos = 0;
    if (!term_parse(a, src, &pos, 1, NULL, NULL, &t, &err))
        fprintf(stderr, "cannot parse %s: %s\n", src, err.msg);
    return t;
}

/* "OK", "INVALID <rule>" or "UNSUPPORTED: <msg>" for ms_validate_for on src. */
static void validate_as(int *failures, MsDialect dialect, const char *src, const char *want)
{
    Arena a;
    arena_init(&a);
    MsVerdict v = dialect == MS_FOR_CALL ? ms_validate(parse(&a, src)) : ms_validate_for(parse(&a, src), dialect);
    char got[300];
    if (v.check == MS_OK)
        snprintf(got, sizeof got, "OK");
    else if (v.check == MS_INVALID)
        snprintf(got, sizeof got, "INVALID %s", v.rule);
    else
        snprintf(got, sizeof got, "UNSUPPORTED: %s", v.msg);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "ms: %s\n", src);
    CHECK_STR(got, want);
    arena_free(&a);
}

/* The same for a function pattern's match spec. */
static void validate(int *failures, const char *src, const char *want)
{
    validate_as(failures, MS_FOR_CALL, src, want);
}

static void test_form(int *failures)
{
    validate(failures, "true", "OK");
    validate(failures, "false", "OK");
    validate(failures, "[]", "OK");
    validate(failures, "ok", "INVALID MS-FORM");
    validate(failures, "[x|y]", "INVALID MS-FORM");
    validate(failures, "[x]", "INVALID MS-FORM");
    validate(failures, "[{a,b}]", "INVALID MS-FORM");
    validate(failures, "[{'_',x,[]}]", "INVALID MS-FORM");
    validate(failures, "[{'_',[x|y],[]}]", "INVALID MS-FORM");
    validate(failures, "[{'_',[],x}]", "INVALID MS-FORM");
    validate(failures, "[{'_',[],[x|y]}]", "INVALID MS-FORM");
}

static void test_heads(int *failures)
{
    validate(failures, "[{'_',[],[]}]", "OK");
    validate(failures, "[{[],[],[]}]", "OK");
    validate(failures, "[{'$1',[],[{message,'$1'}]}]", "OK");
    validate(failures, "[{['_', 1, ok, {t, [x]}, #{k => v}, \"s\", <<1>>, [a|b], <p>],[],[]}]", "OK");
    validate(failures, "[{['$1', {'$2', '$1'}, ['$3'|'_'], #{k => '$4'}],[],[]}]", "OK");
    validate(failures, "[{['$_', '$$', '$01', '$00', '$2147483648', '$', '$1a', x],[],[]}]", "OK"); /* plain atoms */
    validate(failures, "[{[#{{a,'$1'} => 1}],[],[]}]", "OK"); /* a nested '$1' in a key is an atom */
    validate(failures, "[{x,[],[]}]", "INVALID MS-HEAD");
    validate(failures, "[{'$_',[],[]}]", "INVALID MS-HEAD");
    validate(failures, "[{1,[],[]}]", "INVALID MS-HEAD");
    validate(failures, "[{[a|b],[],[]}]", "INVALID MS-HEAD");
    validate(failures, "[{['_'|'_'],[],[]}]", "INVALID MS-HEAD");
    validate(failures, "[{[#{'$1' => v}],[],[]}]", "INVALID MS-HEAD-MAP");
    validate(failures, "[{[#{'_' => v}],[],[]}]", "INVALID MS-HEAD-MAP");
    validate(failures, "[{{'$1'},[],[]}]",
             "UNSUPPORTED: a tuple as match spec head is not supported by model v1 (use a list)");
}

static void test_expressions(int *failures)
{
    validate(failures, "[{['$1'],[{is_integer,'$1'},{'>',{'+','$1',1},2},{'andalso',true,'$1'}],[]}]", "OK");
    validate(failures, "[{['$1'],[{'=:=',{self},<a>},{'==',{node},{node,{self}}}],[]}]", "OK");
    validate(failures, "[{'_',[],[{message,[{self}|'$_']},{message,#{{self} => '$$'}}]}]", "OK");
    validate(failures, "[{'_',[],[{message,{{a,{const,{b}},{caller}}}}]}]", "OK");
    validate(failures, "[{'_',[],[foo, 1, '_', {return_trace}, {exception_trace}, {silent,x}]}]", "OK");
    validate(failures, "[{'_',[{'and',true}],[]}]", "OK");
    /* unbound variables, even in a clause that would never run */
    validate(failures, "[{'_',[],[{message,'$1'}]}]", "INVALID MS-UNBOUND");
    validate(failures, "[{['$1'],[{'==','$2',1}],[]}]", "INVALID MS-UNBOUND");
    validate(failures, "[{['$1'],[],[]},{'_',[],[{message,'$1'}]}]", "INVALID MS-UNBOUND");
    /* tuples that call nothing a match spec knows */
    validate(failures, "[{'_',[],[{message,{tag,42}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{1,2}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{nonsense}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[{is_atom}],[]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[{is_atom,a,b}],[]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{return_trace,1}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{self,1}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[{'and'}],[]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{is_boolean,true}}]}]", "OK"); /* from OTP 26 (C-12) */
    validate(failures, "[{'_',[],[{current_stacktrace}]}]", "UNSUPPORTED: match spec function current_stacktrace/0 is not supported by model v1");
    validate(failures, "[{'_',[],[{message,{current_stacktrace,a}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{set_seq_token,yxa,true}}]}]", "OK"); /* raises: 'EXIT' */
    /* MS-SET-SEQ-TOKEN: literal label, send, 'receive', print with a literal value; serial, time
     * stamp flags, other values and a send spec stay refused */
    validate(failures, "[{'_',[],[{message,{set_seq_token,label,1}}]}]", "OK");
    validate(failures, "[{'_',[],[{set_seq_token,'receive',false}]}]", "OK");
    validate(failures, "[{'_',[],[{set_seq_token,serial,{0,1}}]}]", "UNSUPPORTED: match spec function set_seq_token/2 is not supported by model v1");
    validate(failures, "[{'_',[],[{set_seq_token,timestamp,true}]}]", "UNSUPPORTED: match spec function set_seq_token/2 is not supported by model v1");
    validate(failures, "[{'_',[],[{set_seq_token,label,-1}]}]", "UNSUPPORTED: match spec function set_seq_token/2 is not supported by model v1");
    validate(failures, "[{['$1'],[],[{set_seq_token,print,'$1'}]}]", "UNSUPPORTED: match spec function set_seq_token/2 is not supported by model v1");
    validate_as(failures, MS_FOR_SEND, "[{'_',[],[{set_seq_token,label,1}]}]", "UNSUPPORTED: match spec function set_seq_token/2 is not supported by model v1");
    validate(failures, "[{['$1'],[],[{message,{current_stacktrace,'$1'}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{current_stacktrace,576460752303423488}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{'_',[],[{message,{current_stacktrace,3}}]}]", "UNSUPPORTED: match spec function current_stacktrace/1 is not supported by model v1");
    validate(failures, "[{'_',[],[{message,{const}}]}]", "INVALID MS-CONST");
    validate(failures, "[{'_',[],[{message,{const,1,2}}]}]", "INVALID MS-CONST");
    /* body-only functions in a guard */
    validate(failures, "[{'_',[{message,x}],[]}]", "INVALID MS-GUARD-CONTEXT");
    validate(failures, "[{'_',[{return_trace}],[]}]", "INVALID MS-GUARD-CONTEXT");
    validate(failures, "[{'_',[{caller}],[]}]", "INVALID MS-GUARD-CONTEXT");
    validate(failures, "[{'_',[{display,x}],[]}]", "INVALID MS-GUARD-CONTEXT");
    /* the first of several problems is reported; invalid wins over unsupported, whichever
     * comes first */
    validate(failures, "[{x,[],[]},{'_',[],[{message,'$1'}]}]", "INVALID MS-HEAD");
    validate(failures, "[{'_',[],[{set_seq_token,serial,{0,1}},{caller_line}]}]",
             "UNSUPPORTED: match spec function set_seq_token/2 is not supported by model v1");
    validate(failures, "[{'_',[],[{display,x}]},{'_',[],[{message,{tag,1}}]}]", "INVALID MS-UNKNOWN-FUNCTION");
    validate(failures, "[{{a},[],[]},{x,[],[]}]", "INVALID MS-HEAD");
    /* valid, but not modelled */
    validate(failures, "[{'_',[],[{message,{float,1}}]}]",
             "UNSUPPORTED: match spec function float/1 is not supported by model v1");
    /* valid; modelled where the caller is a fixture function (MS-CALLER-LINE) */
    validate(failures, "[{'_',[],[{caller_line}]}]", "OK");
    /* valid and modelled (MS-TRACE-FLAGS, MS-DISPLAY, MS-PROCESS-DUMP, MS-SEQ-TRACE) */
    validate(failures, "[{'_',[{is_seq_trace}],[{display,x},{process_dump},{message,{get_seq_token}}]}]", "OK");
    validate(failures, "[{'_',[],[{enable_trace,send},{disable_trace,<b>,call},{trace,[call],[send]},"
                       "{trace,r,[],[procs]}]}]", "OK");
    validate(failures, "[{'_',[],[{message,{'/',1,2}}]}]",
             "UNSUPPORTED: match spec function //2 is not supported by model v1");
    validate(failures, "[{'_',[],[{message,{return_trace}}]}]",
             "UNSUPPORTED: {return_trace...} nested inside another expression is not supported by "
             "model v1 (write it as a body element)");
    validate(failures, "[{['$1','$2','$3','$4','$5','$6','$7','$8','$9','$10','$11','$12','$13','$14',"
                       "'$15','$16','$17','$18','$19','$20','$21','$22','$23','$24','$25','$26','$27',"
                       "'$28','$29','$30','$31','$32','$33','$34','$35','$36','$37','$38','$39','$40',"
                       "'$41','$42','$43','$44','$45','$46','$47','$48','$49','$50','$51','$52','$53',"
                       "'$54','$55','$56','$57','$58','$59','$60','$61','$62','$63','$64','$65'],[],[]}]",
             "UNSUPPORTED: more than 64 match variables in one head are not supported by model v1");
}

/* "m=M msg=X rt=R et=E silent=S" (or "unsupported: why") for ms_run on args, called by <a>
 * from {tcs_target,twice,1}, " collided" added when a map's keys collided; rules=... when
 * want_rules; faulty: the release builds maps as OTP 25 to 29 do (C-445). */
static void run_as(int *failures, const char *ms, const char *args, const char *want, bool want_rules, bool faulty)
{
    Arena a;
    arena_init(&a);
    Term *m = parse(&a, ms);
    MsVerdict v = ms_validate(m);
    if (v.check != MS_OK)
        fprintf(stderr, "not OK: %s (%s)\n", ms, v.msg);
    CHECK(v.check == MS_OK);
    if (v.check != MS_OK) {
        arena_free(&a);
        return;
    }
    MsCall call = {parse(&a, args), parse(&a, "<a>"), parse(&a, "{tcs_target,twice,1}"), false, NULL, NULL, faulty, 11, NULL};
    MsOutcome o = ms_run(&a, m, &call);
    Buf b;
    buf_init(&b);
    if (o.unsupported) {
        buf_printf(&b, "unsupported: %s", o.unsupported);
    } else {
        buf_printf(&b, "m=%d msg=", o.matched);
        if (o.message)
            term_print(&b, o.message, PRINT_CANON);
        else
            buf_puts(&b, "-");
        buf_printf(&b, " rt=%d et=%d silent=%d%s", o.return_trace, o.exception_trace, o.silent,
                   o.keys_collided ? " collided" : "");
    }
    if (want_rules)
        buf_printf(&b, " rules=%s", o.rules);
    if (strcmp(buf_str(&b), want) != 0)
        fprintf(stderr, "ms_run %s on %s\n", ms, args);
    CHECK_STR(buf_str(&b), want);
    buf_free(&b);
    arena_free(&a);
}

static void run_rules(int *failures, const char *ms, const char *args, const char *want, bool want_rules)
{
    run_as(failures, ms, args, want, want_rules, false);
}

static void run(int *failures, const char *ms, const char *args, const char *want)
{
    run_rules(failures, ms, args, want, false);
}

/* The message a one-clause spec [{'_',[],[{message,Expr}]}] gives, on args. */
static void message(int *failures, const char *expr, const char *args, const char *want)
{
    char ms[400], w[400];
    snprintf(ms, sizeof ms, "[{'_',[],[{message,%s}]}]", expr);
    snprintf(w, sizeof w, "m=1 msg=%s rt=0 et=0 silent=-1", want);
    run(failures, ms, args, w);
}

/* Whether the guard (one expression) lets the clause match, on args bound to '$1'. */
static void guard(int *failures, const char *g, const char *arg, bool pass)
{
    char ms[400], args[200];
    snprintf(ms, sizeof ms, "[{['$1'],[%s],[]}]", g);
    snprintf(args, sizeof args, "[%s]", arg);
    run(failures, ms, args, pass ? "m=1 msg=- rt=0 et=0 silent=-1" : "m=0 msg=- rt=0 et=0 silent=-1");
}

static void test_run_heads(int *failures)
{
    run(failures, "true", "[1]", "m=1 msg=- rt=0 et=0 silent=-1");
    run(failures, "[]", "[1]", "m=1 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[]}]", "[1]", "m=1 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[2],[],[]}]", "[1]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[1,2],[],[]}]", "[1]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{['$1'],[],[{message,'$1'}]}]", "[{x,[1]}]", "m=1 msg={x,[1]} rt=0 et=0 silent=-1");
    run(failures, "[{'$1',[],[{message,'$1'}]}]", "[1,2]", "m=1 msg=[1,2] rt=0 et=0 silent=-1");
    /* repeated variables must be bound to the same term */
    run(failures, "[{[{'$1','$1'}],[],[{message,'$1'}]}]", "[{7,7}]", "m=1 msg=7 rt=0 et=0 silent=-1");
    run(failures, "[{[{'$1','$1'}],[],[]}]", "[{7,8}]", "m=0 msg=- rt=0 et=0 silent=-1");
    /* structures: tuples, lists, improper lists, maps (a sub-map), literal atoms */
    run(failures, "[{[{'_','$1'}],[],[{message,'$1'}]}]", "[{1,2}]", "m=1 msg=2 rt=0 et=0 silent=-1");
    run(failures, "[{[{'_','$1'}],[],[]}]", "[{1,2,3}]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[{'_','$1'}],[],[]}]", "[[1,2]]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[['$1'|'$2']],[],[{message,'$2'}]}]", "[[1,2,3]]", "m=1 msg=[2,3] rt=0 et=0 silent=-1");
    run(failures, "[{[['$1'|'$2']],[],[]}]", "[[]]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[#{k => '$1'}],[],[{message,'$1'}]}]", "[#{j => 0, k => 1}]", "m=1 msg=1 rt=0 et=0 silent=-1");
    run(failures, "[{[#{k => '_'}],[],[]}]", "[#{j => 0}]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[#{}],[],[]}]", "[x]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[#{k => 2}],[],[]}]", "[#{k => 1}]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{['$_'],[],[]}]", "[a]", "m=0 msg=- rt=0 et=0 silent=-1");
    /* the first clause whose head and guards match decides */
    run(failures, "[{[2],[],[{message,two}]}, {'_',[],[{message,a},{return_trace},{message,b}]}, {'_',[],[{message,z}]}]",
        "[1]", "m=1 msg=b rt=1 et=0 silent=-1");
    run(failures, "[{['$1'],[{'==','$1',b}],[{message,'$1'}]},{'_',[],[{message,other}]}]", "[a]",
        "m=1 msg=other rt=0 et=0 silent=-1");
}

static void test_run_guards(int *failures)
{
    guard(failures, "{is_atom,'$1'}", "a", true);
    guard(failures, "{is_atom,'$1'}", "1", false);
    guard(failures, "{is_integer,'$1'}", "1", true);
    guard(failures, "{is_number,'$1'}", "1", true);
    guard(failures, "{is_list,'$1'}", "[]", true);
    guard(failures, "{is_list,'$1'}", "[1|2]", true);
    guard(failures, "{is_tuple,'$1'}", "{}", true);
    guard(failures, "{is_map,'$1'}", "#{}", true);
    guard(failures, "{is_binary,'$1'}", "<<>>", true);
    guard(failures, "{is_pid,'$1'}", "<b>", true);
    guard(failures, "{is_float,'$1'}", "1", false);
    guard(failures, "{is_port,'$1'}", "1", false);
    guard(failures, "{is_reference,'$1'}", "1", false);
    guard(failures, "{is_function,'$1'}", "1", false);
    guard(failures, "{is_record,'$1',r,2}", "{r,1}", true);
    guard(failures, "{is_record,'$1',r,3}", "{r,1}", false);
    guard(failures, "{is_record,'$1',r,1}", "{}", false);
    guard(failures, "{is_record,'$1',1,1}", "{1}", false); /* badarg: the tag must be an atom */
    guard(failures, "{is_record,'$1',r,x}", "{r}", false);
    /* comparisons are in term order; without floats == is =:= */
    guard(failures, "{'<',1,'$1'}", "a", true);
    guard(failures, "{'=<','$1',1}", "1", true);
    guard(failures, "{'>','$1',{const,{1}}}", "[]", true);
    guard(failures, "{'>=','$1',b}", "a", false);
    guard(failures, "{'==','$1',1}", "1", true);
    guard(failures, "{'=:=','$1',[a]}", "[a]", true);
    guard(failures, "{'/=','$1',1}", "1", false);
    guard(failures, "{'=/=','$1',2}", "1", true);
    /* a guard must be exactly true: other values and failures fail the clause */
    guard(failures, "'$1'", "1", false);
    guard(failures, "true", "1", true);
    guard(failures, "{self}", "1", false);
    guard(failures, "{'+','$1',a}", "1", false);
    guard(failures, "{'andalso',true,1}", "1", false);
    guard(failures, "{'andalso','$1',true}", "1", false);
    guard(failures, "{'andalso',false,{'+',a,1}}", "1", false);
    guard(failures, "{'orelse',true,{'+',a,1}}", "1", true);
    guard(failures, "{'orelse',{'+',a,1},true}", "1", false);
    guard(failures, "{'and',true,true,true}", "1", true);
    guard(failures, "{'and',true,true,true,'$1'}", "true", true);
    guard(failures, "{'==',{element,1,'$1'},a}", "[a]", false);
    guard(failures, "{'==',{element,2,'$1'},a}", "{a}", false);
    guard(failures, "{'and',true,false}", "1", false);
    guard(failures, "{'or',false,{'+','$1',a}}", "1", false);
    guard(failures, "{'or',false,'$1'}", "true", true);
    guard(failures, "{'not',{is_atom,'$1'}}", "1", true);
    guard(failures, "{'not','$1'}", "1", false);
    guard(failures, "{'xor',true,'$1'}", "false", true);
    guard(failures, "{'xor',true,'$1'}", "1", false);
    guard(failures, "{'=:=',{self},<a>}", "1", true);
    guard(failures, "{'=:=',{node},nonode@nohost}", "1", true);
    guard(failures, "{'=:=',{node,'$1'},nonode@nohost}", "<b>", true);
    guard(failures, "{'=:=',{node,'$1'},nonode@nohost}", "x", false);
    guard(failures, "{'=:=',{const,{'$1'}},{{'$1'}}}", "x", false);
    guard(failures, "{'=:=',{const,{x}},{{'$1'}}}", "x", true);
    guard(failures, "{'==',{{{hd,'$1'}}},{{1}}}", "[]", false); /* a failure inside a construction */
    guard(failures, "{'==',#{k => {hd,'$1'}},#{}}", "[]", false);
    guard(failures, "{'==',#{{hd,'$1'} => k},#{}}", "[]", false);
    guard(failures, "{'==',[{hd,'$1'}],[]}", "[]", false);
}

static void test_run_bifs(int *failures)
{
    message(failures, "{'+',1,2}", "[]", "3");
    message(failures, "{'-',1,2}", "[]", "-1");
    message(failures, "{'*',3,-2}", "[]", "-6");
    message(failures, "{'div',-7,2}", "[]", "-3");
    message(failures, "{'rem',-7,2}", "[]", "-1");
    message(failures, "{'rem',7,-2}", "[]", "1");
    message(failures, "{'div',7,0}", "[]", "'EXIT'");
    message(failures, "{'rem',7,0}", "[]", "'EXIT'");
    message(failures, "{'band',12,10}", "[]", "8");
    message(failures, "{'bor',12,10}", "[]", "14");
    message(failures, "{'bxor',12,10}", "[]", "6");
    message(failures, "{'bnot',1}", "[]", "-2");
    message(failures, "{'bsl',1,62}", "[]", "4611686018427387904");
    message(failures, "{'bsl',0,100}", "[]", "0");
    message(failures, "{'bsl',1,-1}", "[]", "0");
    message(failures, "{'bsr',-8,1}", "[]", "-4");
    message(failures, "{'bsr',-8,100}", "[]", "-1");
    message(failures, "{'bsr',8,100}", "[]", "0");
    message(failures, "{'+',3}", "[]", "3");
    message(failures, "{'-',3}", "[]", "-3");
    message(failures, "{'-',a}", "[]", "'EXIT'");
    message(failures, "{abs,-3}", "[]", "3");
    message(failures, "{abs,3}", "[]", "3");
    message(failures, "{round,2}", "[]", "2");
    message(failures, "{trunc,2}", "[]", "2");
    message(failures, "{element,1,{hd,'$_'}}", "[{a,b}]", "a");
    message(failures, "{element,0,{const,{a}}}", "[]", "'EXIT'");
    message(failures, "{element,2,{const,{a}}}", "[]", "'EXIT'");
    message(failures, "{element,a,{const,{a}}}", "[]", "'EXIT'");
    message(failures, "{hd,[]}", "[]", "'EXIT'");
    message(failures, "{tl,[1|2]}", "[]", "2");
    message(failures, "{length,\"ab\"}", "[]", "2");
    message(failures, "{length,[a|b]}", "[]", "'EXIT'");
    message(failures, "{size,{const,{1,2}}}", "[]", "2");
    message(failures, "{size,<<1,2,3>>}", "[]", "3");
    message(failures, "{size,[1]}", "[]", "'EXIT'");
    message(failures, "{byte_size,<<1,2>>}", "[]", "2");
    message(failures, "{bit_size,<<1,2>>}", "[]", "16");
    message(failures, "{byte_size,{const,{1}}}", "[]", "'EXIT'");
    message(failures, "{map_size,#{a => 1}}", "[]", "1");
    message(failures, "{map_size,a}", "[]", "'EXIT'");
    message(failures, "{map_get,a,#{a => 1}}", "[]", "1");
    message(failures, "{map_get,b,#{a => 1}}", "[]", "'EXIT'");
    message(failures, "{is_map_key,a,#{a => 1}}", "[]", "true");
    message(failures, "{is_map_key,b,x}", "[]", "'EXIT'");
    message(failures, "{binary_part,<<1,2,3>>,3,-2}", "[]", "<<2,3>>");
    message(failures, "{binary_part,<<1,2,3>>,{const,{1,1}}}", "[]", "<<2>>");
    message(failures, "{binary_part,<<1,2>>,2,0}", "[]", "<<>>");
    message(failures, "{binary_part,<<1,2>>,3,0}", "[]", "'EXIT'");
    message(failures, "{binary_part,<<1,2>>,0,-1}", "[]", "'EXIT'");
    message(failures, "{binary_part,<<1,2>>,a,1}", "[]", "'EXIT'");
    message(failures, "{binary_part,x,0,1}", "[]", "'EXIT'");
    message(failures, "{binary_part,<<1,2>>,0,x}", "[]", "'EXIT'");
    message(failures, "{binary_part,<<1,2>>,-1,1}", "[]", "'EXIT'");
    message(failures, "{binary_part,<<1,2>>,x}", "[]", "'EXIT'");
    message(failures, "{is_record,{{}},r,0}", "[]", "false");
    message(failures, "{binary_part,<<1,2>>,{const,{1}}}", "[]", "'EXIT'");
    message(failures, "{node,x}", "[]", "'EXIT'");
    message(failures, "{'andalso',true,1}", "[]", "1");
    message(failures, "{'orelse',1}", "[]", "1");
    message(failures, "{'orelse',false,1}", "[]", "1");
    message(failures, "{'andalso',false,{'+',a,1}}", "[]", "false");
    message(failures, "{'orelse',{'+',a,1},true}", "[]", "'EXIT'");
    message(failures, "{'and',true,1}", "[]", "'EXIT'");
    message(failures, "{'and',false,{'+',a,1}}", "[]", "'EXIT'");
    message(failures, "{'not',1}", "[]", "'EXIT'");
    message(failures, "{'xor',true,1}", "[]", "'EXIT'");
    message(failures, "{'<',1,a}", "[]", "true");
    message(failures, "{'==',1,a}", "[]", "false");
    message(failures, "{is_atom,a}", "[]", "true");
}

static void test_run_bodies(int *failures)
{
    /* '$_', '$$' (bound variables in the order of their numbers), constructions */
    message(failures, "'$_'", "[1,2]", "[1,2]");
    run(failures, "[{['$2','$1'],[],[{message,'$$'}]}]", "[a,b]", "m=1 msg=[b,a] rt=0 et=0 silent=-1");
    run(failures, "[{['$3','_'],[],[{message,'$$'}]}]", "[a,b]", "m=1 msg=[a] rt=0 et=0 silent=-1");
    message(failures, "'$$'", "[a,b]", "[]");
    run(failures, "[{'$1',[],[{message,'$$'}]}]", "[a,b]", "m=1 msg=[[a,b]] rt=0 et=0 silent=-1");
    run(failures, "[{['$1'],[],[{message,{{'$1','$_'}}}]}]", "[a]", "m=1 msg={a,[a]} rt=0 et=0 silent=-1");
    run(failures, "[{['$1'],[],[{message,[a|'$1']}]}]", "[1]", "m=1 msg=[a|1] rt=0 et=0 silent=-1");
    run(failures, "[{['$1'],[],[{message,#{'$1' => '$1'}}]}]", "[1]", "m=1 msg=#{1=>1} rt=0 et=0 silent=-1");
    message(failures, "{const,'$1'}", "[1]", "'$1'");
    message(failures, "{{}}", "[]", "{}");
    message(failures, "#{}", "[]", "#{}");
    message(failures, "'_'", "[]", "'_'");
    message(failures, "{self}", "[]", "<a>");
    message(failures, "{node}", "[]", "nonode@nohost");
    message(failures, "{caller}", "[]", "{tcs_target,twice,1}");
    message(failures, "{caller_line}", "[]", "{tcs_target,twice,1,{[116,99,115,95,116,97,114,103,101,116,46,101,114,108],11}}");
    /* a failing call in a body gives 'EXIT' in its place, and the clause still matches */
    message(failures, "[{'+',a,1}]", "[]", "['EXIT']");
    message(failures, "{{{'+',a,1}}}", "[]", "{'EXIT'}");
    message(failures, "#{x => {'+',a,1}}", "[]", "#{x=>'EXIT'}");
    run(failures, "[{'_',[],[{message,{hd,'$_'}},{message,{hd,[]}}]}]", "[3]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{element,2,{const,{a}}}},{message,y}]}]", "[]", "m=1 msg=y rt=0 et=0 silent=-1");
    /* actions: the last message wins; other expressions have no effect */
    run(failures, "[{'_',[],[{message,false},{message,x}]}]", "[]", "m=1 msg=x rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,x},{message,false}]}]", "[]", "m=1 msg=false rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[foo,{'+',1,1},{caller},{{a}}]}]", "[]", "m=1 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{[{'$1','$1'},'$1'],[],[]}]", "[{1,1},2]", "m=0 msg=- rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{exception_trace},{return_trace}]}]", "[]", "m=1 msg=- rt=1 et=1 silent=-1");
    run(failures, "[{'_',[],[{silent,true}]}]", "[]", "m=1 msg=- rt=0 et=0 silent=1");
    run(failures, "[{'_',[],[{silent,true},{silent,false}]}]", "[]", "m=1 msg=- rt=0 et=0 silent=0");
    run(failures, "[{'_',[],[{silent,false},{silent,x}]}]", "[]", "m=1 msg=- rt=0 et=0 silent=0");
    run(failures, "[{['$1'],[],[{silent,'$1'}]}]", "[true]", "m=1 msg=- rt=0 et=0 silent=1");
    run(failures, "[{['$1'],[],[{silent,{'==','$1',1}}]}]", "[1]", "m=1 msg=- rt=0 et=0 silent=1");
}

/* A map built from keys that turn out equal: the last value of a key, as the documents and
 * OTP's match_spec_SUITE maps/1 say; as OTP 25 to 29 build it (erts_usort_flatmap, C-445), what
 * erlang:match_spec_test/3 answered (the result's maps:to_list/1, sorted) on 25.2.3, 27.3.4.1 and
 * 29.1.2 alike, except the two rows of atoms, which are 25's: 27 and 29 compare two atoms by their
 * index in the atom table. The last row has no equal keys. */
static void test_run_faulty_map_usort(int *failures)
{
    static const struct {
        const char *map, *args, *documents, *otp;
    } cases[] = {
        {"#{'$1'=>a,'$2'=>b,'$3'=>c}", "[1,2,1]", "#{1=>c,2=>b}", "#{1=>c,1=>c} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c}", "[1,1,2]", "#{1=>b,2=>c}", "#{1=>b,2=>c} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c}", "[2,1,1]", "#{1=>c,2=>a}", "#{1=>c,1=>c} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c,'$4'=>d}", "[1,2,3,1]", "#{1=>d,2=>b,3=>c}", "#{1=>d,1=>d,2=>b} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c,'$4'=>d}", "[1,2,1,2]", "#{1=>c,2=>d}", "#{1=>c,2=>b} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c,'$4'=>d}", "[3,3,3,3]", "#{3=>d}", "#{3=>d} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c,'$4'=>d,'$5'=>e}", "[5,1,5,2,1]", "#{1=>e,2=>d,5=>c}", "#{1=>e,1=>e,2=>d} collided"},
        {"#{'$1'=>a,'$2'=>b,7=>c}", "[7,7,0]", "#{7=>b}", "#{7=>b} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c}", "[zz,aa,zz]", "#{aa=>b,zz=>c}", "#{aa=>b,zz=>c} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c}", "[aa,zz,aa]", "#{aa=>c,zz=>b}", "#{aa=>c,aa=>c} collided"},
        {"#{'$1'=>a,'$2'=>b,'$3'=>c}", "[3,2,1]", "#{1=>c,2=>b,3=>a}", "#{1=>c,2=>b,3=>a}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char head[40] = "[", ms[200], documents[100], otp[100];
        int nvars = 0;
        for (const char *c = cases[i].args; *c; c++) /* one variable per argument */
            if (*c == ',' || *c == ']') {
                nvars++;
                snprintf(head + strlen(head), sizeof head - strlen(head), "%s'$%d'", nvars > 1 ? "," : "", nvars);
            }
        snprintf(ms, sizeof ms, "[{%s],[],[{message,%s}]}]", head, cases[i].map);
        snprintf(documents, sizeof documents, "m=1 msg=%s rt=0 et=0 silent=-1", cases[i].documents);
        char *otp_map = strtok(strcpy(otp, cases[i].otp), " ");
        const char *collided = strtok(NULL, " ");
        char want[100];
        snprintf(want, sizeof want, "m=1 msg=%s rt=0 et=0 silent=-1%s", otp_map, collided ? " collided" : "");
        run_as(failures, ms, cases[i].args, documents, false, false);
        run_as(failures, ms, cases[i].args, want, false, true);
    }
}

/* {caller} and {caller_line} when the model does not know where the call returns to; and
 * {caller_line} of a caller in the harness's code, whose file and line it does not know. */
static void test_run_no_caller(int *failures)
{
    Arena a;
    arena_init(&a);
    MsCall call = {parse(&a, "[]"), parse(&a, "<a>"), NULL, false, NULL, NULL, false, 0, NULL};
    MsOutcome o = ms_run(&a, parse(&a, "[{'_',[],[{message,{caller}}]}]"), &call);
    CHECK(o.matched && term_is_atom(o.message, "undefined"));
    o = ms_run(&a, parse(&a, "[{'_',[],[{message,{caller_line}}]}]"), &call);
    CHECK(o.matched && term_is_atom(o.message, "undefined"));
    call.caller = parse(&a, "{tcs_puppet,perform,1}");
    o = ms_run(&a, parse(&a, "[{'_',[],[{message,{caller_line}}]}]"), &call);
    CHECK(o.unsupported && strstr(o.unsupported, "the harness's own code"));
    arena_free(&a);
}

/* Integers of any size (MS-GUARD-BIGNUM): exact results, erts' badarith and system_limit as
 * 'EXIT' in a body, and the model's bound; every value here is Python's (exact integers). */
static void test_run_bignums(int *failures)
{
    const char *beyond = "unsupported: integer arithmetic beyond 2^20 bits in a match spec is";
    run(failures, "[{'_',[],[{message,{'*',4611686018427387904,4}}]}]", "[]", "m=1 msg=18446744073709551616 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'+',9223372036854775807,1}}]}]", "[]", "m=1 msg=9223372036854775808 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'-',-9223372036854775807,2}}]}]", "[]", "m=1 msg=-9223372036854775809 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'div',{'-',{'-',9223372036854775807},1},-1}}]}]", "[]", "m=1 msg=9223372036854775808 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsl',1,63}}]}]", "[]", "m=1 msg=9223372036854775808 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsl',-3,62}}]}]", "[]", "m=1 msg=-13835058055282163712 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{abs,{'-',{'-',9223372036854775807},1}}}]}]", "[]", "m=1 msg=9223372036854775808 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'div',-340282366920938463463374607431768211456,7}}]}]", "[]", "m=1 msg=-48611766702991209066196372490252601636 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'rem',-340282366920938463463374607431768211456,7}}]}]", "[]", "m=1 msg=-4 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'rem',340282366920938463463374607431768211456,-7}}]}]", "[]", "m=1 msg=4 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'band',-18446744073709551616,36893488147419103231}}]}]", "[]", "m=1 msg=18446744073709551616 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bor',-18446744073709551617,1}}]}]", "[]", "m=1 msg=-18446744073709551617 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bxor',-18446744073709551616,-1}}]}]", "[]", "m=1 msg=18446744073709551615 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bnot',18446744073709551616}}]}]", "[]", "m=1 msg=-18446744073709551617 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsr',-18446744073709551617,64}}]}]", "[]", "m=1 msg=-2 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsr',-18446744073709551617,1000}}]}]", "[]", "m=1 msg=-1 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsl',18446744073709551616,-64}}]}]", "[]", "m=1 msg=1 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsr',5,-18446744073709551616}}]}]", "[]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsl',-5,-18446744073709551616}}]}]", "[]", "m=1 msg=-1 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsl',0,18446744073709551616}}]}]", "[]", "m=1 msg=0 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'bsl',1,33554367}}]}]", "[]", beyond);
    run(failures, "[{'_',[],[{message,{'bsl',1,33554368}}]}]", "[]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'-',-9223372036854775808}}]}]", "[]", "m=1 msg=9223372036854775808 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'-',9223372036854775808}}]}]", "[]", "m=1 msg=-9223372036854775808 rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'div',1,0}}]}]", "[]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'+',18446744073709551616,a}}]}]", "[]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'<',-18446744073709551616,-9223372036854775808}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'>',18446744073709551616,9223372036854775807}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'<',18446744073709551616,a}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'<',-36893488147419103232,-18446744073709551616}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'>',18446744073709551617,18446744073709551616}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{'=:=',{'-',{'+',18446744073709551616,1},1},18446744073709551616}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{is_integer,-18446744073709551616}}]}]", "[]", "m=1 msg=true rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{is_function,a,18446744073709551616}}]}]", "[]", "m=1 msg=false rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{is_function,a,-18446744073709551616}}]}]", "[]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{element,18446744073709551616,{{a}}}}]}]", "[]", "m=1 msg='EXIT' rt=0 et=0 silent=-1");
    run(failures, "[{'_',[],[{message,{max,18446744073709551616,-18446744073709551616}}]}]", "[]", "m=1 msg=18446744073709551616 rt=0 et=0 silent=-1");
}

static void test_run_unsupported_and_rules(int *failures)
{
    const char *beyond = "unsupported: integer arithmetic beyond 2^20 bits in a match spec is";
    run(failures, "[{'_',[],[{message,{'bsl',1,2000000}}]}]", "[]", beyond);
    run(failures, "[{'_',[{'==',{'bsl',-1,2000000},0}],[]}]", "[]", beyond);
    run(failures, "[{'_',[],[{silent,{'*',{'bsl',1,1000000},{'bsl',1,1000000}}}]}]", "[]", beyond);
    /* the rules behind an outcome, for --explain */
    run_rules(failures, "true", "[1]", "m=1 msg=- rt=0 et=0 silent=-1 rules=", true);
    run_rules(failures, "[{['$1'],[{'=:=',{self},<a>},{is_atom,'$1'}],[]},{'_',[],[{message,{{{node},{caller},'$$','$_',{const,1}}}},{message,{hd,[]}}]}]",
              "[#{}]", "m=1 msg='EXIT' rt=0 et=0 silent=-1 rules=MS-CLAUSE-ORDER MS-HEAD-VARIABLE MS-GUARD "
              "MS-GUARD-FAIL MS-GUARD-TYPE MS-GUARD-COMPARE MS-GUARD-ARITH MS-SELF MS-NODE MS-CALLER "
              "MS-DOLLAR-UNDERSCORE MS-DOLLAR-DOLLAR MS-BODY-EXIT MS-BODY-VALUE MS-CONST MS-EVAL-ORDER", true);
    run_rules(failures, "[]", "[1]", "m=1 msg=- rt=0 et=0 silent=-1 rules=MS-EMPTY", true);
    run_rules(failures, "[{'_',[{'orelse',false,true}],[foo]}]", "[1]",
              "m=1 msg=- rt=0 et=0 silent=-1 rules=MS-GUARD MS-GUARD-BOOL MS-BODY-VALUE", true);
    run_rules(failures, "[{[#{}],[],[]}]", "[#{}]", "m=1 msg=- rt=0 et=0 silent=-1 rules=MS-HEAD-MAP", true);
}

/* Send and receive specs (checked live with erlang:trace_pattern(send | 'receive', MS, [])):
 * the functions each dialect refuses, in guards and bodies, and what stays as for calls. */
static void test_dialects(int *failures)
{
    static const char *const call_only[] = {"[{'_',[],[{caller}]}]", "[{'_',[],[{caller_line}]}]",
                                            "[{'_',[{caller}],[]}]", "[{'_',[],[{message,{{{caller}}}}]}]"};
    for (size_t i = 0; i < sizeof call_only / sizeof call_only[0]; i++) {
        validate_as(failures, MS_FOR_SEND, call_only[i], "INVALID MSGPAT-SEND-REFUSED");
        validate_as(failures, MS_FOR_RECEIVE, call_only[i], "INVALID MSGPAT-RECEIVE-REFUSED");
    }
    validate(failures, "[{'_',[],[{caller}]}]", "OK");
    static const char *const trace_ops[] = {
        "[{'_',[],[{silent,true}]}]", "[{'_',[],[{process_dump}]}]", "[{'_',[],[{enable_trace,send}]}]",
        "[{'_',[],[{enable_trace,<p>,send}]}]", "[{'_',[],[{disable_trace,send}]}]",
        "[{'_',[],[{disable_trace,<p>,send}]}]", "[{'_',[],[{trace,[send],[]}]}]",
        "[{'_',[],[{trace,<p>,[send],[]}]}]", "[{'_',[{is_seq_trace}],[]}]", "[{'_',[],[{get_seq_token}]}]",
        "[{'_',[],[{set_seq_token,label,1}]}]"};
    for (size_t i = 0; i < sizeof trace_ops / sizeof trace_ops[0]; i++)
        validate_as(failures, MS_FOR_RECEIVE, trace_ops[i], "INVALID MSGPAT-RECEIVE-REFUSED");
    /* allowed in a send spec, and run */
    validate_as(failures, MS_FOR_SEND, "[{'_',[],[{silent,true}]}]", "OK");
    validate_as(failures, MS_FOR_SEND, "[{'_',[],[{process_dump},{enable_trace,send}]}]", "OK");
    /* accepted in both, and what is invalid for calls stays invalid */
    validate_as(failures, MS_FOR_SEND, "[{'_',[],[{return_trace},{exception_trace},{message,{self}}]}]", "OK");
    validate_as(failures, MS_FOR_RECEIVE, "[{['$1','$2','$3'],[{'=:=','$1',{node}}],[{return_trace}]}]", "OK");
    validate_as(failures, MS_FOR_RECEIVE, "[{'_',[],[{get_tcw}]}]", "OK");
    validate_as(failures, MS_FOR_SEND, "[{['_'],[],[{message,'$1'}]}]", "INVALID MS-UNBOUND");
    validate_as(failures, MS_FOR_RECEIVE, "[{'_',[],[{current_stacktrace}]}]",
                "UNSUPPORTED: match spec function current_stacktrace/0 is not supported by model v1");
    validate_as(failures, MS_FOR_SEND, "true", "OK");
    validate_as(failures, MS_FOR_RECEIVE, "restart", "INVALID MS-FORM");
}

/* The message of an outcome: false drops the event; true and no message give no result. */
/* A fake model for the trace flag functions: records each call as text, answers by target:
 * <gone> fails, 'same' changes nothing, 'unknown' is beyond the model, any other changes. */
typedef struct { Buf log; } FakeFlags;

static MsEffect fake_trace_flags(void *ctx, const MsTraceChange *ch, const char **why)
{
    FakeFlags *f = ctx;
    const Term *target = ch->target;
    if (ch->fails) /* as the model's hooks do where no release crashes first (msflags.c) */
        return MSE_FAIL;
    buf_puts(&f->log, "(");
    if (target)
        term_print(&f->log, target, PRINT_CANON);
    else
        buf_puts(&f->log, "self");
    buf_printf(&f->log, " -%#x +%#x%s", ch->disable, ch->enable, ch->changed ? " changed?" : "");
    if (ch->tracer) {
        buf_puts(&f->log, " ");
        term_print(&f->log, ch->tracer, PRINT_CANON);
    }
    buf_puts(&f->log, ")");
    if (target && target->kind == TK_PID && strcmp(target->u.name, "gone") == 0)
        return MSE_FAIL;
    if (target && term_is_atom(target, "unknown")) {
        *why = "this target is";
        return MSE_UNSUPPORTED;
    }
    return target && term_is_atom(target, "same") ? MSE_FALSE : MSE_TRUE;
}

/* The message of [{'_',[],[{message,Expr}]}] run with the fake hooks and a token or none, and
 * the hook calls it made: "MSG LOG", or "unsupported: why LOG". */
static void run_effects(int *failures, const char *expr, bool token, const char *want)
{
    Arena a;
    arena_init(&a);
    char ms[400];
    snprintf(ms, sizeof ms, "[{'_',[],[{process_dump},{message,%s}]}]", expr);
    Term *m = parse(&a, ms);
    CHECK(ms_validate(m).check == MS_OK);
    FakeFlags f;
    buf_init(&f.log);
    MsHooks hooks = {&f, fake_trace_flags, NULL};
    long long tcw = 7;
    MsCall call = {parse(&a, "[]"), parse(&a, "<a>"), NULL, token, &hooks, &tcw, false, 0, NULL};
    MsOutcome o = ms_run(&a, m, &call);
    Buf b;
    buf_init(&b);
    if (o.unsupported)
        buf_printf(&b, "unsupported: %s", o.unsupported);
    else
        term_print(&b, o.message, PRINT_CANON);
    buf_printf(&b, " %s", buf_str(&f.log));
    if (strcmp(buf_str(&b), want) != 0)
        fprintf(stderr, "run_effects %s\n", expr);
    CHECK_STR(buf_str(&b), want);
    buf_free(&b);
    buf_free(&f.log);
    arena_free(&a);
}

/* enable_trace/1,2, disable_trace/1,2, trace/2,3 (MS-TRACE-FLAGS), display (MS-DISPLAY),
 * process_dump (MS-PROCESS-DUMP), is_seq_trace and get_seq_token (MS-SEQ-TRACE). */
static void test_run_process_functions(int *failures)
{
    run_effects(failures, "{enable_trace,send}", false, "true (self -0 +0x1)");
    run_effects(failures, "{disable_trace,<b>,'receive'}", false, "true (<b> -0x2 +0)");
    run_effects(failures, "{enable_trace,r,all}", false, "true (r -0 +0x3ffdff)");
    run_effects(failures, "{enable_trace,<gone>,send}", false, "'EXIT' (<gone> -0 +0x1)");
    run_effects(failures, "{enable_trace,tracer}", false, "'EXIT' ");
    run_effects(failures, "{enable_trace,cpu_timestamp}", false, "'EXIT' ");
    run_effects(failures, "{enable_trace,1,send}", false, "'EXIT' ");
    run_effects(failures, "{trace,[call],[send,procs]}", false, "true (self -0x4 +0x9 changed?)");
    run_effects(failures, "{trace,same,[],[send]}", false, "false (same -0 +0x1 changed?)");
    run_effects(failures, "{trace,[cpu_timestamp],[]}", false, "'EXIT' ");
    run_effects(failures, "{trace,[send|x],[]}", false, "'EXIT' ");
    run_effects(failures, "{trace,[],[nonflag]}", false, "'EXIT' ");
    /* MS-TRACE-FLAGS-TRACER: the last tracer item of Disable ++ Enable; another tuple fails */
    static const char *const tracer_items[][2] = {
        {"{trace,[],[{{tracer,<b>}}]}", "true (self -0 +0 changed? {tracer,<b>})"},
        {"{trace,[{{tracer,<b>}}],[send,{{tracer,m,s}}]}", "true (self -0 +0x1 changed? {tracer,m,s})"},
        {"{trace,[],[{{tracer,x}}]}", "'EXIT' "},
        {"{trace,[],[{{tracer,1,s}}]}", "'EXIT' "},
        {"{trace,[],[{{silent,true}}]}", "'EXIT' "},
    };
    for (size_t i = 0; i < sizeof tracer_items / sizeof tracer_items[0]; i++)
        run_effects(failures, tracer_items[i][0], false, tracer_items[i][1]);
    run_effects(failures, "{enable_trace,unknown,send}", false, "unsupported: this target is (unknown -0 +0x1)");
    run_effects(failures, "{{{display,x},{is_seq_trace},{get_seq_token}}}", false, "{true,false,[]} ");
    run_effects(failures, "{is_seq_trace}", true, "true ");
    run_effects(failures, "{get_seq_token}", true,
                "unsupported: the value of {get_seq_token} with a token (its internal form) is ");
    run_effects(failures, "{process_dump}", false,
                "unsupported: the value of {process_dump} (a text the documents leave undefined) is ");
    /* the trace control word (7 here): set_tcw gives the old value (MS-TCW); last element first */
    run_effects(failures, "{{{set_tcw,9},{get_tcw},{set_tcw,-1},{set_tcw,4294967296},{set_tcw,4294967295}}}", false,
                "{4294967295,4294967295,'EXIT','EXIT',7} ");
    run(failures, "[{'_',[{'=:=',{get_tcw},0}],[]}]", "[]", "unsupported: the trace control word in this match spec is");
    /* without hooks (a port's send spec) the trace flag functions are beyond the model */
    run(failures, "[{'_',[],[{enable_trace,send}]}]", "[]",
        "unsupported: a trace flag function in this match spec is");
}

/* The message of [{'_',[],[{message,Expr}]}] run as erlang:match_spec_test/3 runs it (MS_FOR_TEST:
 * MS-TEST-NO-EFFECT), the word 7 before and after: "MSG tcw=N", or "unsupported: why". */
static void run_test_dialect(int *failures, const char *expr, const char *want)
{
    Arena a;
    arena_init(&a);
    char ms[400];
    snprintf(ms, sizeof ms, "[{'_',[],[{message,%s}]}]", expr);
    Term *m = parse(&a, ms);
    MsVerdict v = ms_validate_for(m, MS_FOR_TEST);
    long long tcw = 7;
    MsCall call = {parse(&a, "[]"), parse(&a, "<a>"), NULL, false, NULL, &tcw, false, 0,
                   parse(&a, "[{label,[]},{send,{send,false}}]")};
    Buf b;
    buf_init(&b);
    if (v.check != MS_OK) {
        buf_printf(&b, "unsupported: %s", v.msg);
    } else {
        MsOutcome o = ms_run(&a, m, &call);
        if (o.unsupported) {
            buf_printf(&b, "unsupported: %s", o.unsupported);
        } else {
            term_print(&b, o.message, PRINT_CANON);
            buf_printf(&b, " tcw=%lld", tcw);
        }
    }
    CHECK_STR(buf_str(&b), want);
    buf_free(&b);
    arena_free(&a);
}

/* erlang:match_spec_test/3's set_seq_token and set_tcw give what is and set nothing (C-561); its
 * trace flag functions go to the hooks (C-560); the call dialect keeps refusing set_seq_token. */
static void test_run_test_dialect(int *failures)
{
    run_test_dialect(failures, "{set_seq_token,label,1}", "[] tcw=7");
    run_test_dialect(failures, "{set_seq_token,send,true}", "{send,false} tcw=7");
    run_test_dialect(failures, "{set_seq_token,yxa,true}", "'EXIT' tcw=7");
    run_test_dialect(failures, "{{{get_tcw},{set_tcw,9},{set_tcw,-1}}}", "{7,7,'EXIT'} tcw=7");
    /* the trace flag functions: a test's hooks decide (ref/events/mstest.c, C-560); without them the
     * arguments that name no flag still fail, and the rest is beyond the model */
    run_test_dialect(failures, "{enable_trace,yxa}", "'EXIT' tcw=7");
    run_test_dialect(failures, "{trace,[send],[]}", "unsupported: a trace flag function in this match spec is");
    Arena a;
    arena_init(&a);
    /* outside a test, a component the model does not set in a call spec stays refused (C-86) */
    CHECK(ms_validate(parse(&a, "[{'_',[],[{set_seq_token,timestamp,true}]}]")).check == MS_UNSUPPORTED);
    arena_free(&a);
}

static void test_message_outcome(int *failures)
{
    Arena a;
    arena_init(&a);
    MsOutcome none = {.silent = -1}, f = none, t = none, x = none;
    f.message = parse(&a, "false");
    t.message = parse(&a, "true");
    x.message = parse(&a, "{x,1}");
    CHECK(!ms_message_false(&none) && ms_message_false(&f) && !ms_message_false(&t) && !ms_message_false(&x));
    CHECK(ms_message_result(&none) == NULL && ms_message_result(&t) == NULL);
    CHECK(ms_message_result(&f) == f.message && ms_message_result(&x) == x.message);
    arena_free(&a);
}

int main(void)
{
    int n = 0, *failures = &n;
    test_form(failures);
    test_heads(failures);
    test_expressions(failures);
    test_run_heads(failures);
    test_run_guards(failures);
    test_run_bifs(failures);
    test_run_bodies(failures);
    test_run_faulty_map_usort(failures);
    test_run_no_caller(failures);
    test_run_bignums(failures);
    test_run_unsupported_and_rules(failures);
    test_run_process_functions(failures);
    test_dialects(failures);
    test_run_test_dialect(failures);
    test_message_outcome(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
