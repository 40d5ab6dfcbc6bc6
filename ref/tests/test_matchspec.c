/* test_matchspec.c - ms_validate on every shape of the v1 subset and outside it, ms_run. */
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

/* "OK", "INVALID" or "UNSUPPORTED: msg" for ms_validate on src. */
static void validate(int *failures, const char *src, const char *want)
{
    Arena a;
    arena_init(&a);
    char msg[200] = "", got[260];
    MsCheck c = ms_validate(&a, parse(&a, src), msg, sizeof msg);
    if (c == MS_OK)
        snprintf(got, sizeof got, "OK");
    else if (c == MS_INVALID)
        snprintf(got, sizeof got, "INVALID");
    else
        snprintf(got, sizeof got, "UNSUPPORTED: %s", msg);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "ms: %s\n", src);
    CHECK_STR(got, want);
    arena_free(&a);
}

static void test_validate(int *failures)
{
    const char *U = "UNSUPPORTED: ";
    char w[300];
#define UNS(src, m) (snprintf(w, sizeof w, "%s%s", U, m), validate(failures, src, w))
    validate(failures, "true", "OK");
    validate(failures, "false", "OK");
    validate(failures, "[]", "OK");
    UNS("ok", "match spec must be true, false or a list of clauses");
    UNS("[x|y]", "match spec must be true, false or a list of clauses");
    UNS("[x]", "match spec clause must be {Head,Guards,Body}");
    UNS("[{a,b}]", "match spec clause must be {Head,Guards,Body}");
    /* heads */
    validate(failures, "[{'_',[],[]}]", "OK");
    validate(failures, "[{[],[],[]}]", "OK");
    validate(failures, "[{['_', 1, ok, {t, [x]}, #{k => v}, \"s\", <<1>>, [a|b]],[],[]}]", "OK");
    UNS("[{x,[],[]}]", "match spec head must be '_' or a list in model v1");
    UNS("[{[a|b],[],[]}]", "match spec head must be '_' or a list in model v1");
    UNS("[{['$1'],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[{'_'}],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[{a,'$1'}],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[#{k => '$1'}],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[#{'$1' => v}],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[[a,'_']],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[['_'|a]],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    UNS("[{[<a>],[],[]}]", "match spec head elements must be '_' or literals in model v1");
    /* guards and bodies */
    UNS("[{'_',[{is_integer,1}],[]}]", "match spec guards are not supported by model v1");
    UNS("[{'_',x,[]}]", "match spec guards are not supported by model v1");
    UNS("[{'_',[],x}]", "match spec body must be a list");
    UNS("[{'_',[],[x|y]}]", "match spec body must be a list");
    validate(failures, "[{'_',[],[{return_trace},{message,hi},{message,[1,{{a,<<2>>}}]}]}]", "OK");
    validate(failures, "[{'_',[],[{message,#{k => {const,{x,y}}}}]}]", "OK");
    validate(failures, "[{'_',[],[{message,{{}}}]}]", "OK");
    UNS("[{'_',[],[hello]}]",
        "match spec body actions other than {message,X} and {return_trace} are not supported by model v1");
    UNS("[{'_',[],[{{a}}]}]",
        "match spec body actions other than {message,X} and {return_trace} are not supported by model v1");
    UNS("[{'_',[],[{return_trace,x}]}]", "match spec function return_trace is not supported by model v1");
    UNS("[{'_',[],[{self}]}]", "match spec function self is not supported by model v1");
    UNS("[{'_',[],[{message,{'+',1,2}}]}]", "match spec function + is not supported by model v1");
    UNS("[{'_',[],[{message,'$1'}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,'_'}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,['$_']}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,[a|'$1']}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,#{'$1' => 1}}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,#{k => '$1'}}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,{{a,'$1'}}}]}]", "match variables in match spec bodies are not supported by model v1");
    UNS("[{'_',[],[{message,<a>}]}]", "pids in match specs are not supported by model v1");
    /* a tuple that calls no match spec function: erlang:trace_pattern raises badarg */
    validate(failures, "[{'_',[],[{message,{tag,42}}]}]", "INVALID");
    validate(failures, "[{'_',[],[{message,{1,2}}]}]", "INVALID");
    validate(failures, "[{'_',[],[{message,{}}]}]", "INVALID");
    validate(failures, "[{'_',[],[{nonsense}]}]", "INVALID");
    validate(failures, "[{'_',[],[{message,{tag,1}}]}, {'_',[],[]}]", "INVALID");
    /* unsupported wins over invalid, whichever clause comes first */
    UNS("[{'_',[],[{message,{tag,1}}]}, {x,[],[]}]", "match spec head must be '_' or a list in model v1");
#undef UNS
}

/* "matched=M message=H suppress=S return=R result=X" for ms_run. */
static void run(int *failures, const char *ms, const char *args, const char *want)
{
    Arena a;
    arena_init(&a);
    Term *m = parse(&a, ms);
    char msg[200];
    CHECK(ms_validate(&a, m, msg, sizeof msg) == MS_OK);
    MsOutcome o = ms_run(&a, m, parse(&a, args));
    Buf b;
    buf_init(&b);
    buf_printf(&b, "matched=%d message=%d suppress=%d return=%d result=", o.matched, o.has_message,
               o.suppress, o.return_trace);
    if (o.result)
        term_print(&b, o.result, PRINT_CANON);
    else
        buf_puts(&b, "-");
    CHECK_STR(buf_str(&b), want);
    buf_free(&b);
    arena_free(&a);
}

static void test_run(int *failures)
{
    run(failures, "true", "[1]", "matched=1 message=0 suppress=0 return=0 result=-");
    run(failures, "[]", "[1]", "matched=1 message=0 suppress=0 return=0 result=-");
    run(failures, "[{'_',[],[]}]", "[1]", "matched=1 message=0 suppress=0 return=0 result=-");
    run(failures, "[{[2],[],[]}]", "[1]", "matched=0 message=0 suppress=0 return=0 result=-");
    run(failures, "[{[1,2],[],[]}]", "[1]", "matched=0 message=0 suppress=0 return=0 result=-");
    run(failures, "[{['_',2],[],[{return_trace}]}]", "[1,2]", "matched=1 message=0 suppress=0 return=1 result=-");
    run(failures, "[{['_',3],[],[{return_trace}]}]", "[1,2]", "matched=0 message=0 suppress=0 return=0 result=-");
    run(failures, "[{[1],[],[{message,true}]}]", "[1]", "matched=1 message=1 suppress=0 return=0 result=-");
    run(failures, "[{[1],[],[{message,false}]}]", "[1]", "matched=1 message=1 suppress=1 return=0 result=-");
    /* the first matching clause decides; within it the last message wins */
    run(failures, "[{[2],[],[{message,two}]}, {'_',[],[{message,a},{return_trace},{message,{{b,[c|d],#{k=>{const,{e}}}}}}]}, {'_',[],[{message,z}]}]",
        "[1]", "matched=1 message=1 suppress=0 return=1 result={b,[c|d],#{k=>{e}}}");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_validate(failures);
    test_run(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
