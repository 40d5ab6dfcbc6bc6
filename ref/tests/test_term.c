/* test_term.c - term parser (good inputs, errors with line/col) and canonical printer. */
#include <stdlib.h>
#include <string.h>

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

/* External pids and ports are opaque, told apart from the case's own, and equal to themselves. */
static void test_foreign(int *failures)
{
    Arena a;
    arena_init(&a);
    Term *ext = term_external(&a, TK_PID), *port = term_external(&a, TK_PORT), *pid = term_pid(&a, "a");
    Term *atomics = term_atomics(&a), *ref = term_ref(&a);
    CHECK(term_is_external(ext) && term_is_external(port) && !term_is_external(pid));
    CHECK(term_is_atomics(atomics) && !term_is_atomics(ref) && !term_is_atomics(pid));
    Term *els[] = {pid, ext};
    CHECK(term_find_opaque(term_tuple(&a, 2, els)) == ext);
    CHECK(term_find_opaque(pid) == NULL);
    CHECK(term_compare(ext, term_external(&a, TK_PID)) == 0);
    CHECK(term_compare(ext, port) != 0);
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
        {"{a, fun}", 5, "a fun is written fun() -> Term end"},
        {"fun() -> ok", 12, "expected 'end'"},
        {"<<1:12>>", 5, "multiple of 8 bits"},
        {"<<256:8>>", 7, "does not fit in 8 bits"},
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
        {"lists:duplicate(-1, x)", 17, "an integer N >= 0"},
        {"lists:duplicate(x, 1)", 17, "an integer N >= 0"},
        {"lists:duplicate(3)", 18, "expected ','"},
        {"{lists:duplicate(1048577, 0)}", 2, "at most 16777216 bytes"},
        {"[lists:duplicate(900000, 0), lists:duplicate(200000, 0)]", 30, "at most 16777216 bytes"},
        {"lists:duplicate(65536, lists:duplicate(65536, 0))", 1, "at most 16777216 bytes"},
        {"binary:copy(<<1,2>>, 3)", 13, "a binary of one byte"},
        {"binary:copy(a, 3)", 13, "a binary of one byte"},
        {"binary:copy(<<1>>, -3)", 20, "an integer N >= 0"},
        {"binary:copy(<<1>>, 16777217)", 1, "at most 16777216 bytes"},
        {"binary:copy(<<1>>, 2", 21, "expected ')'"},
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
    const char *ordered[] = {"-36893488147419103232", "-18446744073709551617", "-18446744073709551616",
                             "-9223372036854775809", "-9223372036854775808", "-3", "42", "9223372036854775807",
                             "9223372036854775808", "18446744073709551616", "18446744073709551617",
                             "36893488147419103232", "a", "b", "<a>", "{z}", "{a,b}", "#{}", "[]", "[a]", "[a,b]", "<<>>", "<<1>>"};
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

/* Integers beyond 64 bits (bigint.h): kept whole, printed as integer_to_list/1 writes them,
 * cloned, counted, and refused past the model's bound of 2^20 bits. */
static void test_bigints(int *failures)
{
    roundtrip(failures, "18446744073709551658", PRINT_CANON, "18446744073709551658"); /* 2^64 + 42 */
    roundtrip(failures, "-9223372036854775808", PRINT_CANON, "-9223372036854775808");
    roundtrip(failures, "-9223372036854775809", PRINT_CANON, "-9223372036854775809");
    roundtrip(failures, "{00018446744073709551616, -0}", PRINT_PLAN, "{18446744073709551616, 0}");
    roundtrip(failures, "#{18446744073709551616 => a, -18446744073709551616 => b, 1 => c}", PRINT_CANON,
              "#{-18446744073709551616=>b,1=>c,18446744073709551616=>a}");
    Arena a;
    arena_init(&a);
    Term *t = NULL;
    Err err = {0};
    size_t pos = 0;
    bool parsed = term_parse(&a, "-340282366920938463463374607431768211457", &pos, 1, NULL, NULL, &t, &err);
    CHECK(parsed && t->kind == TK_BIGINT && t->u.big.neg && t->u.big.n == 3 && term_bytes(t, 100) == 32);
    Term *copy = term_clone(t);
    CHECK(term_compare(copy, t) == 0 && copy->u.big.digit != t->u.big.digit);
    free(copy);
    uint64_t digit[] = {7, 0, 0};
    CHECK(term_integer(&a, true, 3, digit)->kind == TK_INT && term_integer(&a, true, 3, digit)->u.i == -7);
    /* 10^315652 has 1048574 bits, 10^315653 has 1048577 */
    for (size_t zeros = 315652; zeros <= 315653; zeros++) {
        char *text = calloc(zeros + 2, 1);
        text[0] = '1';
        memset(text + 1, '0', zeros);
        pos = 0;
        parsed = term_parse(&a, text, &pos, 5, NULL, NULL, &t, &err);
        CHECK(parsed == (zeros == 315652));
        if (!parsed)
            CHECK_STR(err.msg, "integers of more than 1048576 bits are not supported by model v1");
        free(text);
    }
    arena_free(&a);
}

/* Exact messages and columns of the term parser's errors (line 5, no pid check but for <c>). */
static void test_error_messages(int *failures)
{
    static const struct { const char *src; const char *want; } cases[] = {
        {"{a b}", "5:4: expected '}', found 'b'"},
        {"[a b]", "5:4: expected ']', found 'b'"},
        {"[a | ]", "5:6: unexpected character ']' in term"},
        {"[a | b c]", "5:8: expected ']', found 'c'"},
        {"16#ff", "5:1: based integers are not supported by model v1"},
        {"'\\x'", "5:2: unsupported escape sequence in model v1"},
        {"'a\\nb'", "5:1: control characters in atoms are not supported in model v1"},
        {"\"\\q\"", "5:2: unsupported escape sequence in model v1"},
        {"\"abc", "5:1: unterminated string"},
        {"{a, \"\xff\"}", "5:5: invalid UTF-8 in string"},
        {"\"\xc3\"", "5:1: invalid UTF-8 in string"},
        {"\"\xc3\x41\"", "5:1: invalid UTF-8 in string"},
        {"\"\xf8\x80\x80\x80\x80\"", "5:1: invalid UTF-8 in string"},
        {"#a", "5:1: expected '#{' for a map"},
        {"#Fun<a>", "5:1: references, ports and funs (#F...) are not supported by model v1"},
        {"#{a => 1 b}", "5:10: expected '}', found 'b'"},
        {"#{a => 1,", "5:10: expected a term, found end of line"},
        {"#{a =>", "5:7: expected a term, found end of line"},
        {"#{ => 1}", "5:4: unexpected character '=' in term"},
        {"<<a>>", "5:3: binary segments must be integers 0..255 or strings in model v1"},
        {"<<1 2>>", "5:5: expected '>>' to close the binary"},
        {"<<1,", "5:5: binary segments must be integers 0..255 or strings in model v1"},
        {"<<\"a\\q\">>", "5:5: unsupported escape sequence in model v1"},
        {"<<-1>>", "5:3: binary segments must be integers 0..255 or strings in model v1"},
        {"<A>", "5:1: expected a process name in <name>"},
        {"<>", "5:1: expected a process name in <name>"},
        {"<a b>", "5:3: expected '>' to close the symbolic pid"},
        {"<a@b>", "5:3: expected '>' to close the symbolic pid"},
        {"<c>", "5:1: unknown process <c> (not declared or not yet spawned)"},
        {"@", "5:1: unexpected character '@' in term"},
        {"-a", "5:1: unexpected character '-' in term"},
        {"", "5:1: expected a term, found end of line"},
        {" \t\r", "5:4: expected a term, found end of line"},
        {"_", "5:1: variables are not allowed in terms (write '_' quoted for the wildcard atom)"},
        {"begin", "5:1: reserved word 'begin' must be quoted to be an atom"},
        {"{fun}", "5:2: a fun is written fun() -> Term end (arity 0, a constant body) in model v1"},
        {"1.5", "5:1: floats are not supported by model v1"},
        {"<0.1.2>", "5:1: raw pids are not supported by model v1 (write <name>)"},
        {"$a", "5:1: character literals are not supported by model v1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Arena a;
        arena_init(&a);
        Term *t;
        Err err = {0};
        size_t pos = 0;
        char got[300];
        if (term_parse(&a, cases[i].src, &pos, 5, only_ab, NULL, &t, &err))
            snprintf(got, sizeof got, "OK");
        else
            snprintf(got, sizeof got, "%d:%d: %s", err.line, err.col, err.msg);
        CHECK_STR(got, cases[i].want);
        arena_free(&a);
    }
}

/* term_parse leaves *pos just after the term. */
static void test_pos(int *failures)
{
    Arena a;
    arena_init(&a);
    Term *t;
    Err err = {0};
    size_t pos = 3;
    CHECK(term_parse(&a, "ab  {x, y}  rest", &pos, 1, NULL, NULL, &t, &err));
    CHECK(pos == 10);
    pos = 0;
    CHECK(term_parse(&a, "1.x", &pos, 1, NULL, NULL, &t, &err));
    CHECK(pos == 1 && t->kind == TK_INT && t->u.i == 1);
    arena_free(&a);
}

/* The limits are OTP's and the parser's own, exactly: 255 characters in an atom (counted in
 * code points, not bytes), 256 levels of nesting; one more is an error at the term. */
static void test_limits(int *failures)
{
    char src[4096];
    struct { const char *unit; size_t n; bool ok; const char *close; } cases[] = {
        {"x", 255, true, ""}, {"x", 256, false, ""},
        {"\xc3\xa9", 255, true, "'"}, {"\xc3\xa9", 256, false, "'"},
        {"[", 256, true, NULL}, {"[", 257, false, NULL},
        {"{", 256, true, NULL}, {"#{a=>", 257, false, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Arena a;
        arena_init(&a);
        size_t len = 0;
        if (cases[i].close && cases[i].close[0])
            src[len++] = '\'';
        for (size_t k = 0; k < cases[i].n; k++)
            for (const char *u = cases[i].unit; *u; u++)
                src[len++] = *u;
        if (cases[i].close) {
            len += (size_t)snprintf(src + len, sizeof src - len, "%s", cases[i].close);
        } else {
            src[len++] = '1';
            const char *closer = cases[i].unit[0] == '[' ? "]" : "}";
            for (size_t k = 0; k < cases[i].n; k++)
                src[len++] = closer[0];
        }
        src[len] = '\0';
        Term *t;
        Err err = {0};
        size_t pos = 0;
        bool ok = term_parse(&a, src, &pos, 1, NULL, NULL, &t, &err);
        CHECK(ok == cases[i].ok);
        if (!ok && cases[i].unit[0] == 'x')
            CHECK_STR(err.msg, "atom longer than 255 characters (OTP's limit)");
        if (!ok && cases[i].close == NULL)
            CHECK(strncmp(err.msg, "nesting too deep", 16) == 0 &&
                  err.col == (int)((cases[i].n - 1) * strlen(cases[i].unit)) + 1); /* the innermost term */
        arena_free(&a);
    }
}

/* Pairs of distinct terms of one kind, first < second (equal kinds compare their contents). */
static void test_compare_same_kind(int *failures)
{
    static const char *const pairs[][2] = {
        {"-5", "3"},
        {"abc", "abd"},
        {"ab", "abc"},
        {"<a>", "<b>"},
        {"{a,b}", "{a,c}"},
        {"{z}", "{a,a}"},
        {"#{a=>1}", "#{a=>1,b=>1}"},
        {"#{a=>9}", "#{b=>0}"},
        {"#{a=>1,b=>2}", "#{a=>1,b=>3}"},
        {"#{a=>1,b=>2}", "#{a=>2,b=>1}"},
        {"[a,b]", "[a,c]"},
        {"[a|b]", "[a|c]"},
        {"[a]", "[b]"},
        {"<<1,2>>", "<<1,3>>"},
        {"<<1>>", "<<1,0>>"},
        {"<<>>", "<<0>>"},
        {"<<2>>", "<<10,0>>"},
    };
    Arena a;
    arena_init(&a);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        Term *x, *y, *x2;
        Err err = {0};
        size_t p1 = 0, p2 = 0, p3 = 0;
        CHECK(term_parse(&a, pairs[i][0], &p1, 1, NULL, NULL, &x, &err));
        CHECK(term_parse(&a, pairs[i][1], &p2, 1, NULL, NULL, &y, &err));
        CHECK(term_parse(&a, pairs[i][0], &p3, 1, NULL, NULL, &x2, &err));
        if (term_compare(x, y) >= 0 || term_compare(y, x) <= 0)
            fprintf(stderr, "%s < %s does not hold\n", pairs[i][0], pairs[i][1]);
        CHECK(term_compare(x, y) < 0);
        CHECK(term_compare(y, x) > 0);
        CHECK(term_compare(x, x2) == 0);
    }
    /* placeholders compare by text; built terms equal parsed ones */
    CHECK(term_compare(term_placeholder(&a, "_A"), term_placeholder(&a, "_B")) < 0);
    Term *el[2] = {term_int(&a, 1), term_atom(&a, "x")};
    Term *p;
    Err err = {0};
    size_t pos = 0;
    CHECK(term_parse(&a, "{1,x,<<7>>}", &pos, 1, NULL, NULL, &p, &err));
    CHECK(term_compare(term_tuple3(&a, el[0], el[1], term_bin(&a, 1, (const unsigned char *)"\7")), p) == 0);
    CHECK(term_compare(term_tuple3(&a, el[0], el[1], NULL), p) < 0);
    CHECK(term_list_length(term_list(&a, 2, el)) == 2);
    CHECK(term_list_length(term_cons(&a, el[0], el[1])) == -1);
    CHECK(term_list_length(el[0]) == -1);
    CHECK(!term_is_atom(NULL, "x"));
    CHECK(!term_is_atom(el[0], "x"));
    CHECK(!term_is_atom(el[1], "y"));
    CHECK(term_is_atom(el[1], "x"));
    arena_free(&a);
}

/* Long terms: a million cells compared, cloned, searched and printed along their tails (no
 * stack depth per cell), the uniform ones printed compactly from their values alone. */
static void test_long_terms(int *failures)
{
    Arena a;
    arena_init(&a);
    size_t pos = 0;
    Err err = {0};
    Term *t, *u;
    CHECK(term_parse(&a, "lists:duplicate(1048575, 7)", &pos, 1, NULL, NULL, &t, &err));
    CHECK(term_list_length(t) == 1048575);
    Term *copy = term_clone(t);
    CHECK(term_compare(t, copy) == 0);
    CHECK(term_find_opaque(copy) == NULL);
    Buf out;
    buf_init(&out);
    term_print(&out, copy, PRINT_CANON);
    CHECK_STR(buf_str(&out), "lists:duplicate(1048575,7)");
    free(copy);
    pos = 0; /* the last element differs: printed in full, and ordered by it */
    CHECK(term_parse(&a, "lists:duplicate(2000, [7, 8])", &pos, 1, NULL, NULL, &u, &err));
    Term *last = u;
    while (last->u.cons.tail->kind == TK_CONS)
        last = last->u.cons.tail;
    last->u.cons.head = term_int(&a, 6);
    CHECK(term_compare(t, u) < 0 && term_compare(u, t) > 0);
    buf_free(&out);
    buf_init(&out);
    term_print(&out, u, PRINT_CANON);
    CHECK(out.len == strlen("[6]") + 6 * 1999 && strncmp(buf_str(&out), "[[7,8],[7,8],", 13) == 0);
    buf_free(&out);
    pos = 0; /* a run shorter than TERM_LONG: printed in full */
    CHECK(term_parse(&a, "[8 | lists:duplicate(1023, 9)]", &pos, 1, NULL, NULL, &u, &err));
    buf_init(&out);
    term_print(&out, u, PRINT_CANON);
    CHECK(out.len == strlen("[8]") + 2 * 1023 && strncmp(buf_str(&out), "[8,9,9,", 7) == 0);
    buf_free(&out);
    CHECK(term_bytes(t, TERM_MAX_BYTES) == 16 * 1048575);
    CHECK(term_bytes(t, 1000) > 1000);
    arena_free(&a);
}

/* Long terms written in a few characters (cases/README.md "Terms"), printed so when long, as
 * calls in the stream and as the runner's markers in the plan. */
static void test_long_term_prints(int *failures)
{
    static const struct { const char *src; PrintStyle style; const char *want; } cases[] = {
        {"binary:copy(<<7>>, 1024)", PRINT_CANON, "binary:copy(<<7>>,1024)"},
        {"{x, binary:copy(<<0>>, 10485760)}", PRINT_PLAN, "{x, {'$tcs_binary_copy', 0, 10485760}}"},
        {"binary:copy(<<7>>, 3)", PRINT_CANON, "<<7,7,7>>"},
        {"<<0:8192>>", PRINT_CANON, "binary:copy(<<0>>,1024)"},
        {"lists:duplicate(3, {a, <b>})", PRINT_CANON, "[{a,<b>},{a,<b>},{a,<b>}]"},
        {"lists:duplicate(0, x)", PRINT_CANON, "[]"},
        {"lists:duplicate(1024, [])", PRINT_CANON, "lists:duplicate(1024,[])"},
        {"lists:duplicate(655360, <b>)", PRINT_PLAN, "{'$tcs_duplicate', 655360, {'$tcs_pid', b}}"},
        {"lists:duplicate(1024, binary:copy(<<1>>, 1024))", PRINT_CANON,
         "lists:duplicate(1024,binary:copy(<<1>>,1024))"},
        {"[8, 9 | lists:duplicate(1024, 9)]", PRINT_CANON, "[8|lists:duplicate(1025,9)]"},
        {"[8 | lists:duplicate(1024, 9)]", PRINT_PLAN, "[8|{'$tcs_duplicate', 1024, 9}]"},
        {"lists:duplicate ( 2 , 0 )", PRINT_CANON, "lists"}, /* a call has no blank before '(' */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        roundtrip(failures, cases[i].src, cases[i].style, cases[i].want);
}

int main(void)
{
    int n = 0, *failures = &n;
    test_limits(failures);
    test_long_terms(failures);
    test_long_term_prints(failures);
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
    /* escapes, UTF-8, blanks */
    roundtrip(failures, "\"a\\\"b\\n\\t\\\\\"", PRINT_CANON, "[97,34,98,10,9,92]");
    roundtrip(failures, "\"\xe2\x82\xac\xf0\x9f\x98\x80\"", PRINT_CANON, "[8364,128512]");
    /* CONFORMANCE.md §1 escapes only \\ and ' in atoms; a double quote prints as is */
    roundtrip(failures, "'a\\\"b'", PRINT_CANON, "'a\"b'");
    roundtrip(failures, "{\ta,\r b ,\t[ ] }", PRINT_CANON, "{a,b,[]}");
    roundtrip(failures, "<< 1 , \"\" , 255 >>", PRINT_CANON, "<<1,255>>");
    roundtrip(failures, "#{ }", PRINT_CANON, "#{}");
    roundtrip(failures, "[ ]", PRINT_CANON, "[]");
    roundtrip(failures, "9223372036854775807", PRINT_CANON, "9223372036854775807");
    roundtrip(failures, "-9223372036854775807", PRINT_CANON, "-9223372036854775807");
    /* opaque values (STATE-ANY-TERM): funs of arity 0, fresh refs, sized binary segments */
    roundtrip(failures, "{fun() -> ok end, make_ref()}", PRINT_CANON, "{fun()->ok end,_Ref}");
    roundtrip(failures, "{fun () -> {a, <b>} end, make_ref()}", PRINT_PLAN,
              "{{'$tcs_fun', {a, {'$tcs_pid', b}}}, {'$tcs_ref'}}");
    roundtrip(failures, "<<0:32, 258:16, 7>>", PRINT_CANON, "<<0,0,0,0,1,2,7>>");
    roundtrip(failures, "make_ref", PRINT_CANON, "make_ref"); /* without () an atom */
    /* another node's pid and port, an atomics reference (C-280): opaque, made by the runner */
    roundtrip(failures, "{external_pid(), external_port(), atomics:new(1,[])}", PRINT_CANON,
              "{<ext:pid>,<ext:port>,_Ref}");
    roundtrip(failures, "{external_pid(), external_port(), atomics:new(1,[])}", PRINT_PLAN,
              "{{'$tcs_external', pid}, {'$tcs_external', port}, {'$tcs_atomics'}}");
    roundtrip(failures, "[external_pid, atomics]", PRINT_CANON, "[external_pid,atomics]"); /* atoms */
    roundtrip(failures, "atomics:new(2,[])", PRINT_CANON, "atomics"); /* only the one call */
    test_foreign(failures);
    test_bigints(failures);
    test_errors(failures);
    test_error_messages(failures);
    test_pos(failures);
    test_order(failures);
    test_compare_same_kind(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
