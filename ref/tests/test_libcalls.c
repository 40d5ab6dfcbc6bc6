/* test_libcalls.c - the library targets' calls (ref/vocab/libcalls.c): when lists:seq/2 answers a
 * list, the plan of a library call, a spawn at lists:seq/2 (erlang:phash2/1's values are
 * test_phash2.c's); the corpus (cases/calls/lib_*) checks the same live. */
#include <limits.h>

#include "check.h"
#include "libcalls.h"
#include "sim.h"

#define H "case x\nrules A\ndesc \"d\"\notp 25\ntracer recorder\nprocess a\n" /* steps on line 7 */

static void test_seq(int *failures)
{
    Arena a = {0};
    unsigned long long len = 0;
    CHECK(libcalls_seq_length(term_int(&a, 3), term_int(&a, 2), &len) && len == 0); /* First-1 =< Last */
    CHECK(!libcalls_seq_length(term_int(&a, 4), term_int(&a, 2), &len));
    CHECK(libcalls_seq_length(term_int(&a, LLONG_MIN), term_int(&a, LLONG_MAX), &len) && len == ULLONG_MAX);
    CHECK(libcalls_seq_length(term_int(&a, LLONG_MIN), term_int(&a, LLONG_MIN), &len) && len == 1);
    CHECK(!libcalls_seq_length(term_atom(&a, "a"), term_int(&a, 1), &len));
    /* integers beyond 64 bits (bigint.h): From 2^64, To 2^64 + 2; and From LLONG_MAX, To 2^63 */
    uint64_t two_64[] = {0, 1}, two_64_plus_2[] = {2, 1}, two_63[] = {(uint64_t)1 << 63};
    Term *big_from = term_integer(&a, false, 2, two_64), *big_to = term_integer(&a, false, 2, two_64_plus_2);
    CHECK(libcalls_seq_length(big_from, big_to, &len) && len == 3);
    CHECK(!libcalls_seq_length(big_to, big_from, &len));
    CHECK(libcalls_seq_length(term_int(&a, LLONG_MIN), big_to, &len) && len == ULLONG_MAX);
    CHECK(!libcalls_seq_length(big_to, term_int(&a, LLONG_MIN), &len));
    bool big_raised;
    Buf big;
    buf_init(&big);
    term_print(&big, libcalls_seq(&a, big_from, big_to, &big_raised), PRINT_CANON);
    CHECK(!big_raised);
    CHECK_STR(buf_str(&big), "[18446744073709551616,18446744073709551617,18446744073709551618]");
    buf_free(&big);
    buf_init(&big);
    term_print(&big, libcalls_seq(&a, term_int(&a, LLONG_MAX), term_integer(&a, false, 1, two_63), &big_raised),
               PRINT_CANON);
    CHECK_STR(buf_str(&big), "[9223372036854775807,9223372036854775808]");
    buf_free(&big);
    bool raised;
    Buf b;
    buf_init(&b);
    term_print(&b, libcalls_seq(&a, term_int(&a, -1), term_int(&a, 1), &raised), PRINT_CANON);
    CHECK(!raised);
    CHECK_STR(buf_str(&b), "[-1,0,1]");
    buf_free(&b);
    buf_init(&b);
    term_print(&b, libcalls_seq(&a, term_int(&a, 5), term_int(&a, 1), &raised), PRINT_CANON);
    CHECK(raised);
    CHECK_STR(buf_str(&b), "function_clause");
    buf_free(&b);
    arena_free(&a);
}

/* the plan of a library call is the fixture's: the runner applies it as it stands */
static void test_plan(int *failures)
{
    static const char *const want[] = {"{step, 1, {pattern, {lists,seq,2}, true, [local]}}.\n",
                                       "{step, 2, {call, a, erlang, phash2, [7]}}.\n", NULL};
    sim_plan_has(failures, H "pattern lists:seq/2 true local\na call erlang:phash2(7)", want);
}

/* a spawn at lists:seq/2 while a counter counts it: the child's call of its entry point counts
 * (PROCS-SPAWN-ENTRY-CALL); once the counter stopped, nothing */
static void test_spawn_entry(int *failures)
{
    sim(failures, H "pattern lists:seq/2 true call_count\npattern lists:seq/2 false call_count\n"
                    "a spawn c {lists,seq,[1,2]}",
        "N ctl erlang:trace_pattern({lists,seq,2},true,[call_count]) -> 1\n"
        "N ctl erlang:trace_pattern({lists,seq,2},false,[call_count]) -> 1\n");
    sim(failures, H "pattern lists:seq/2 true call_count\na spawn c {lists,seq,[1,2]}\ninfo {lists,seq,2} call_count",
        "N ctl erlang:trace_pattern({lists,seq,2},true,[call_count]) -> 1\n"
        "N ctl erlang:trace_info({lists,seq,2},call_count) -> {call_count,1}\n");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_seq(failures);
    test_plan(failures);
    test_spawn_entry(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
