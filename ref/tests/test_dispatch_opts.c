/* test_dispatch_opts.c - fallback for every category, and the Opts map keys. */
#include "check.h"
#include "dispatch.h"
#include "opts.h"

static void test_fallback(int *failures)
{
    char want[64];
    for (int c = 0; c < CAT_COUNT; c++) {
        unsigned none = 0, all = (1u << CALLBACK_COUNT) - 1;
        unsigned only_enabled = 1u << c, only_trace = 1u << (CAT_COUNT + c);
        CHECK_STR(dispatch_enabled(none, (Category)c), "enabled");
        CHECK_STR(dispatch_trace(none, (Category)c), "trace");
        snprintf(want, sizeof want, "enabled_%s", category_name((Category)c));
        CHECK_STR(dispatch_enabled(all, (Category)c), want);
        CHECK_STR(dispatch_enabled(only_enabled, (Category)c), want);
        CHECK_STR(dispatch_trace(only_enabled, (Category)c), "trace");
        CHECK_STR(dispatch_enabled(only_trace, (Category)c), "enabled");
        snprintf(want, sizeof want, "trace_%s", category_name((Category)c));
        CHECK_STR(dispatch_trace(all, (Category)c), want);
        CHECK_STR(dispatch_trace(only_trace, (Category)c), want);
        /* other categories' callbacks do not count */
        CHECK_STR(dispatch_enabled(all & ~only_enabled, (Category)c), "enabled");
        CHECK_STR(dispatch_trace(all & ~only_trace, (Category)c), "trace");
        CHECK(callback_index(dispatch_enabled(all, (Category)c)) == c);
    }
    Category c;
    CHECK(tag_category("send_to_non_existing_process", &c) && c == CAT_SEND);
    CHECK(tag_category("receive", &c) && c == CAT_RECEIVE);
    CHECK(tag_category("return_from", &c) && c == CAT_CALL);
    CHECK(tag_category("getting_unlinked", &c) && c == CAT_PROCS);
    CHECK(tag_category("gc_major_end", &c) && c == CAT_GARBAGE_COLLECTION);
    CHECK(tag_category("out_exited", &c) && c == CAT_RUNNING_PROCS);
    CHECK(!tag_category("trace_status", &c));
    CHECK(tag_is_known("trace_status"));
    CHECK(!tag_is_known("bogus"));
    CHECK(callback_index("enabled") == -1);
}

static void opts(int *failures, FlagSet flags, FlagSet cleared, bool extra, bool msr, const char *want)
{
    Arena a;
    arena_init(&a);
    Buf out, rules;
    buf_init(&out);
    buf_init(&rules);
    Term *t = opts_build(&a, flags, cleared, extra ? term_pid(&a, "b") : NULL,
                         msr ? term_atom(&a, "hi") : NULL, false, &rules);
    term_print(&out, t, PRINT_CANON);
    CHECK_STR(buf_str(&out), want);
    CHECK(strstr(buf_str(&rules), "OPTS-ONLY-SET") != NULL);
    buf_free(&out);
    buf_free(&rules);
    arena_free(&a);
}

static void test_opts(int *failures)
{
    const FlagSet T = FLAG_BIT(FL_TIMESTAMP), M = FLAG_BIT(FL_MONOTONIC_TIMESTAMP),
                  S = FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP), SID = FLAG_BIT(FL_SCHEDULER_ID);
    opts(failures, 0, 0, false, false, "#{}");
    opts(failures, FLAG_BIT(FL_SEND), 0, true, false, "#{extra=><b>}");
    opts(failures, 0, 0, false, true, "#{match_spec_result=>hi}");
    opts(failures, SID, 0, false, false, "#{scheduler_id=>_SchedulerId}");
    opts(failures, SID | T, 0, true, true,
         "#{extra=><b>,match_spec_result=>hi,scheduler_id=>_SchedulerId,timestamp=>timestamp}");
    /* every combination of the three time stamp flags (TS-PRECEDENCE) */
    static const struct { FlagSet set; const char *want; } ts[] = {
        {0, "#{}"},
        {M, "#{timestamp=>monotonic}"},
        {S, "#{timestamp=>strict_monotonic}"},
        {T, "#{timestamp=>timestamp}"},
        {M | S, "#{timestamp=>strict_monotonic}"},
        {M | T, "#{timestamp=>timestamp}"},
        {S | T, "#{timestamp=>timestamp}"},
        {M | S | T, "#{timestamp=>timestamp}"},
    };
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++)
        opts(failures, ts[i].set, 0, false, false, ts[i].want);
    /* TS-REMEMBERED: clearing the highest makes the next one active */
    FlagSet all = M | S | T;
    opts(failures, all & ~T, T, false, false, "#{timestamp=>strict_monotonic}");
    opts(failures, all & ~T & ~S, T | S, false, false, "#{timestamp=>monotonic}");
    opts(failures, all & ~S, S, false, false, "#{timestamp=>timestamp}");
    CHECK(flags_ts_remembered(S, T));
    CHECK(!flags_ts_remembered(T, S));
    CHECK(!flags_ts_remembered(0, T));
    CHECK(flags_timestamp_count(all) == 3);
}

int main(void)
{
    int n = 0, *failures = &n;
    test_fallback(failures);
    test_opts(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
