/* test_term.c - term parser (good inputs, errors with line/col) and canonical printer. */
#include "check.h"
#include "term.h"

/* Parses src and prints it back in style; "ERR c: msg-prefix" on error. */
static void roundtrip(int *failures, const char *src, PrintStyle style, const char *want)
{
    Arena a;
    arena_init(&a);
    Term *t;
    Err err = {0};
    size_t pos = 0;
    Buf out;
    buf_init(&out);
    if (term_parse(&a, src, &pos, 7, NULL, NULL, &t, &err))
        term_print(&out, t, style);
    else
        buf_printf(&out, "ERR %d:%d", err.line, err.col);
    CHECK_STR(buf_str(&out), want);
    buf_free(&out);
    arena_free(&a);
}

static bool only_ab(const void *ctx, const char *name)
{
    (void)ctx;
    return strcmp(name, "a") == 0 || strcmp(name, "b") == 0;
}

static void test_errors(int *failures)
{
    static const struct { const char *src; int col; const char *msg; } cases[] = {
        {"1.5", 1, "floats are not supported"},
        {"{a, fun}", 5, "funs are not supported"},
        {"#Ref<0.1.2>", 1, "references"},
        {"<0.1.2>", 1, "raw pids"},
        {"{X}", 2, "variables are not allowed"},
        {"[1,2", 5, "expected ']'"},
        {"receive", 1, "reserved word"},
        {"'abc", 1, "unterminated quoted atom"},
        {"<<256>>", 3, "out of range"},
        {"  <c>", 3, "unknown process <c>"},
        {"#{a := 1}", 5, "expected '=>'"},
        {"$a", 1, "character literals"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Arena a;
        arena_init(&a);
        Term *t;
        Err err = {0};
        size_t pos = 0;
        bool ok = term_parse(&a, cases[i].src, &pos, 3, only_ab, NULL, &t, &err);
        CHECK(!ok);
        CHECK(err.line == 3);
        if (err.col != cases[i].col)
            fprintf(stderr, "%s: col %d, want %d\n", cases[i].src, err.col, cases[i].col);
        CHECK(err.col == cases[i].col);
        if (!strstr(err.msg, cases[i].msg))
            fprintf(stderr, "%s: message '%s' lacks '%s'\n", cases[i].src, err.msg, cases[i].msg);
        CHECK(strstr(err.msg, cases[i].msg) != NULL);
        arena_free(&a);
    }
}

static void test_order(int *failures)
{
    /* number < atom < pid < tuple < map < nil < list < binary */
    const char *ordered[] = {"-3", "42", "a", "b", "<a>", "{z}", "{a,b}", "#{}", "[]", "[a]", "[a,b]", "<<>>", "<<1>>"};
    Arena a;
    arena_init(&a);
    Term *t[sizeof ordered / sizeof ordered[0]];
    for (size_t i = 0; i < sizeof ordered / sizeof ordered[0]; i++) {
        size_t pos = 0;
        Err err = {0};
        CHECK(term_parse(&a, ordered[i], &pos, 1, NULL, NULL, &t[i], &err));
    }
    for (size_t i = 0; i + 1 < sizeof ordered / sizeof ordered[0]; i++) {
        CHECK(term_compare(t[i], t[i + 1]) < 0);
        CHECK(term_compare(t[i + 1], t[i]) > 0);
        CHECK(term_compare(t[i], t[i]) == 0);
    }
    arena_free(&a);
}

int main(void)
{
    int n = 0, *failures = &n;
    /* printer: atoms */
    roundtrip(failures, "ok", PRINT_CANON, "ok");
    roundtrip(failures, "'receive'", PRINT_CANON, "'receive'");
    roundtrip(failures, "'hello world'", PRINT_CANON, "'hello world'");
    roundtrip(failures, "'Ok'", PRINT_CANON, "'Ok'");
    roundtrip(failures, "'it''s'", PRINT_CANON, "it"); /* stops after the first atom */
    roundtrip(failures, "'a\\'b\\\\c'", PRINT_CANON, "'a\\'b\\\\c'");
    roundtrip(failures, "a@b_C9", PRINT_CANON, "a@b_C9");
    roundtrip(failures, "'_'", PRINT_CANON, "'_'");
    roundtrip(failures, "'end'", PRINT_CANON, "'end'");
    roundtrip(failures, "'caf\xc3\xa9'", PRINT_CANON, "'caf\xc3\xa9'");
    /* numbers, strings, lists, binaries */
    roundtrip(failures, "-1", PRINT_CANON, "-1");
    roundtrip(failures, "\"ab\"", PRINT_CANON, "[97,98]");
    roundtrip(failures, "\"\xc3\xa9\"", PRINT_CANON, "[233]");
    roundtrip(failures, "\"\"", PRINT_CANON, "[]");
    roundtrip(failures, "[a | b]", PRINT_CANON, "[a|b]");
    roundtrip(failures, "[a, b | [c]]", PRINT_CANON, "[a,b,c]");
    roundtrip(failures, "<<1, 2>>", PRINT_CANON, "<<1,2>>");
    roundtrip(failures, "<<\"ab\", 3>>", PRINT_CANON, "<<97,98,3>>");
    roundtrip(failures, "<<>>", PRINT_CANON, "<<>>");
    roundtrip(failures, "{}", PRINT_CANON, "{}");
    /* maps: keys in term order, later duplicate wins */
    roundtrip(failures, "#{z => 1, a => 2, 1 => x, {t} => y, \"s\" => s}", PRINT_CANON,
              "#{1=>x,a=>2,z=>1,{t}=>y,[115]=>s}");
    roundtrip(failures, "#{k => 1, k => 2}", PRINT_CANON, "#{k=>2}");
    roundtrip(failures, "#{}", PRINT_CANON, "#{}");
    /* pids */
    roundtrip(failures, "{<a>, <tracer>}", PRINT_CANON, "{<a>,<tracer>}");
    roundtrip(failures, "{hello, <b>, #{k => <b>}}", PRINT_PLAN,
              "{hello, {'$tcs_pid', b}, #{k => {'$tcs_pid', b}}}");
    test_errors(failures);
    test_order(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
