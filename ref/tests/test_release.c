/* test_release.c - release predictions (ref/state/release.c): the table of deviations (their
 * release ranges, open ones too, and `tcsref deviations`); where the step is not known, C-92's
 * range of steps at which OTP 27 may crash at a collection the runtime starts, the prediction of a
 * node that dies during a given step (--crash-at), and the facts the plan's step_lines comes from
 * (any release's predicted crash: C-92, C-150), where C-502's burst may crash, and where a call's
 * match context argument reads one byte short (C-540). */
#include <stdlib.h>

#include "check.h"
#include "release.h"
#include "run.h"

#define HDR "case x\nrules A\ndesc \"d\"\notp 27\n"
/* a's collections are traced by the legacy session (step 2) and by sa (step 4) */
#define TWO HDR "tracer recorder\nsession sa tracer recorder\nprocess a b\n" \
                "create sa\ntrace a on garbage_collection\nb call lists:seq(1,10)\n"       \
                "trace sa a on garbage_collection\n"

/* Runs text (which must parse) for release with crash_at; into got the stream (header included),
 * facts filled (unless NULL), *e set when the model refuses it; whether it ran. */
static bool attempt(int *failures, const char *text, int release, int crash_at, Buf *got, RunFacts *facts, Err *e)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    CHECK(scenario_parse(&a, "x.tcs", text, &sc, e));
    Stream s;
    stream_init(&s, "x", false);
    bool ran = run_scenario_until(&a, &sc, release, crash_at, &s, e, facts);
    buf_puts(got, buf_str(&s.text));
    stream_free(&s);
    arena_free(&a);
    return ran;
}

/* Runs text for release with crash_at, which the model must take; as attempt. */
static void run(int *failures, const char *text, int release, int crash_at, Buf *got, RunFacts *facts)
{
    Err e = {0};
    CHECK(attempt(failures, text, release, crash_at, got, facts, &e));
}

/* The notes (the comment lines after the header) of text's prediction for release. */
static void notes_are(int *failures, const char *text, int release, const char *want)
{
    Buf got, notes;
    buf_init(&got);
    buf_init(&notes);
    RunFacts facts;
    run(failures, text, release, 0, &got, &facts);
    const char *body = strchr(buf_str(&got), '\n') + 1;
    for (const char *l = strstr(body, "% "); l; l = strstr(l + 1, "\n% ")) {
        const char *start = *l == '\n' ? l + 1 : l, *end = strchr(start, '\n');
        buf_putn(&notes, start, end ? (size_t)(end - start) + 1 : strlen(start));
    }
    CHECK_STR(buf_str(&notes), want);
    buf_free(&got);
    buf_free(&notes);
}

#define RANGE(r, first, last)                                                                              \
    "% otp " #r " follows C-92 at steps " #first "-" #last ": the node may crash (SIGSEGV or SIGABRT) at a " \
    "collection the runtime starts in a process whose collections two sessions trace (erlang/otp#11624), "   \
    "or not crash\n"

static void test_range_until_the_process_exits(int *failures)
{
    const char *text = TWO "a call lists:seq(1,40)\na call lists:seq(1,40)\na exit normal\nb call lists:seq(1,20)\n";
    notes_are(failures, text, 27, RANGE(27, 4, 7));
    notes_are(failures, text, 29, ""); /* C-92 names OTP 27 only: 29 passes (FINDINGS H2b) */
    notes_are(failures, text, 25, "");
    notes_are(failures, text, 0, "");
}

static void test_range_ends_when_a_flag_or_a_session_goes(int *failures)
{
    /* cleared at step 6, traced by both again at step 8, until sa is destroyed at step 9 */
    notes_are(failures, TWO "a call lists:seq(1,40)\ntrace sa a off garbage_collection\na call lists:seq(1,40)\n"
                            "trace sa a on garbage_collection\ndestroy sa\na call lists:seq(1,40)\n",
              27, RANGE(27, 4, 6) RANGE(27, 8, 9));
    /* open at the end of the scenario: it ends at the last step */
    notes_are(failures, TWO "a call lists:seq(1,40)\n", 27, RANGE(27, 4, 5));
    /* one session tracing collections, another tracing something else: no range */
    notes_are(failures, HDR "tracer recorder\nsession sa tracer recorder\nprocess a\ncreate sa\n"
                            "trace a on garbage_collection\ntrace sa a on send\na call lists:seq(1,40)\n",
              27, "");
}

static void test_a_gc_step_ends_the_range_and_the_run(int *failures)
{
    notes_are(failures, TWO "a call lists:seq(1,40)\na gc\nb call lists:seq(1,20)\n", 27,
              "% otp 27 follows C-92 at step 6: the node crashes at a collection traced by two sessions "
              "(erlang/otp#11624)\n" RANGE(27, 4, 6));
}

static void test_crash_at_keeps_the_steps_before(int *failures)
{
    const char *text = TWO "a call lists:seq(1,40)\na exit normal\n";
    Buf whole, before;
    buf_init(&whole);
    buf_init(&before);
    RunFacts facts;
    run(failures, text, 27, 0, &whole, &facts);
    run(failures, text, 27, 4, &before, &facts);
    /* the lines of steps 1-3 only: sa's trace:process (step 4) is not there, the legacy trace is */
    CHECK(strstr(buf_str(&whole), "N ctl trace:process(") != NULL);
    CHECK(strstr(buf_str(&before), "N ctl trace:process(") == NULL);
    CHECK(strstr(buf_str(&before), "N ctl erlang:trace(<a>,true,[garbage_collection]) -> 1\n") != NULL);
    /* the node died before sa's flag: no range yet; the windows opened are closed */
    CHECK(strstr(buf_str(&before), "C-92") == NULL);
    CHECK(strstr(buf_str(&before), "A open w1 ") != NULL && strstr(buf_str(&before), "A close w1\n") != NULL);
    /* a step past the last one, or none: every step */
    Buf past;
    buf_init(&past);
    run(failures, text, 27, 99, &past, &facts);
    CHECK_STR(buf_str(&past), buf_str(&whole));
    buf_free(&whole);
    buf_free(&before);
    buf_free(&past);
}

static void test_facts_say_whether_two_sessions_traced_collections(int *failures)
{
    Buf got;
    buf_init(&got);
    RunFacts facts = {0};
    run(failures, TWO "a call lists:seq(1,40)\n", 0, 0, &got, &facts); /* any release: the documents too */
    CHECK(facts.gc_two_sessions);
    run(failures, HDR "tracer recorder\nsession sa tracer recorder\nprocess a\ncreate sa\n"
                      "trace a on garbage_collection\ntrace sa a on send\n", 0, 0, &got, &facts);
    CHECK(!facts.gc_two_sessions);
    buf_free(&got);
}

/* Whether the plan asks for step_lines on text: some release's node may crash during a step. */
static bool may_crash(int *failures, const char *text)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    bool crash = false;
    CHECK(scenario_parse(&a, "x.tcs", text, &sc, &e));
    CHECK(run_scenario_may_crash(&a, &sc, &crash, &e));
    arena_free(&a);
    return crash;
}

static void test_step_lines_wherever_a_release_crashes(int *failures)
{
    /* C-92: two sessions trace a's collections (OTP 27) */
    CHECK(may_crash(failures, TWO));
    /* C-150: OTP 25 crashes at trace/3 on d, silent with no tracer; the documents do not */
    CHECK(may_crash(failures, HDR "tracer recorder\nprocess a d\n"
                                  "pattern tcs_target:'_'/'_' [{'_',[],[{silent,true}]}] meta\n"
                                  "d call tcs_target:id(1)\ntrace processes on send\n"));
    /* the same with the stray flag cleared first: no release crashes */
    CHECK(!may_crash(failures, HDR "tracer recorder\nprocess a d\n"
                                   "pattern tcs_target:'_'/'_' [{'_',[],[{silent,true}]}] meta\n"
                                   "d call tcs_target:id(1)\ntrace d off silent\ntrace d on send\n"));
}

#define STRAY HDR "tracer recorder\nprocess a d\npattern tcs_target:'_'/'_' [{'_',[],[{silent,true}]}] meta\n" \
                  "d call tcs_target:id(1)\n"
#define C415(step) "% otp 25 follows C-415 at step " #step ": trace_info(P, flags) of a process that a meta match " \
                   "spec made silent while it had no tracer answers {flags,[silent]}\n"

/* C-415: OTP 25 answers trace_info(P, flags) with the stray silent flag of C-150 until trace off
 * silent or a {silent,false} clears it; 27 and 29 follow the documents ([]). */
static void test_stray_silent_shows_in_info_on_25_only(int *failures)
{
    notes_are(failures, STRAY "info d flags\n", 25, C415(3));
    notes_are(failures, STRAY "info d flags\n", 27, "");
    notes_are(failures, STRAY "info d flags\n", 29, "");
    notes_are(failures, STRAY "trace d off send\ninfo d flags\n", 25, C415(4));
    notes_are(failures, STRAY "trace d off silent\ninfo d flags\n", 25, "");
    notes_are(failures, STRAY "pattern tcs_target:id/1 [{'_',[],[{silent,false}]}] meta\nd call tcs_target:id(2)\n"
                              "info d flags\n", 25, "");
    notes_are(failures, STRAY "info d tracer\n", 25, ""); /* the tracer item: [] on every release */
}

static void test_a_range_may_be_open_on_either_side(int *failures)
{
    const ReleaseRange from_26 = {26, RELEASE_OPEN}, up_to_28 = {RELEASE_OPEN, 28}, closed = {25, 27};
    CHECK(!release_range_covers(from_26, 25) && release_range_covers(from_26, 26) && release_range_covers(from_26, 99));
    CHECK(release_range_covers(up_to_28, 1) && release_range_covers(up_to_28, 28) && !release_range_covers(up_to_28, 29));
    CHECK(!release_range_covers(closed, 24) && release_range_covers(closed, 26) && !release_range_covers(closed, 28));
    /* release 0 is the documents, whatever the range */
    CHECK(!release_range_covers(from_26, 0) && !release_range_covers(up_to_28, 0) &&
          !release_range_covers((ReleaseRange){RELEASE_OPEN, RELEASE_OPEN}, 0));
}

static void test_the_releases_tried_for_a_crash_are_those_a_crash_names(int *failures)
{
    /* C-150 names 25, C-92's crash at a `gc` step 27 (its range of steps is no crash for certain),
     * C-560's 27 to 29, where 28 stands for the releases after C-92's range */
    CHECK(release_next_crashing(0) == 25);
    CHECK(release_next_crashing(25) == 27);
    CHECK(release_next_crashing(27) == 28);
    CHECK(release_next_crashing(28) == 29); /* C-660 begins at 29: it stands too */
    CHECK(release_next_crashing(29) == 0);
}

/* Counts the tab-separated fields of the line at text (up to its newline). */
static int fields(const char *text)
{
    int n = 1;
    for (; *text && *text != '\n'; text++)
        n += *text == '\t';
    return n;
}

static void test_the_listing_has_one_line_of_five_fields_per_deviation(int *failures)
{
    Buf out;
    buf_init(&out);
    release_deviations_print(&out);
    int lines = 0;
    for (const char *l = buf_str(&out); *l; l = strchr(l, '\n') + 1, lines++)
        CHECK(strncmp(l, "C-", 2) == 0 && fields(l) == 5);
    CHECK(lines == DEV_COUNT);
    static const char c41[] = "C-41\tstream\t25\t25\tlink/1 by a process with set_on_link";
    CHECK(strncmp(buf_str(&out), c41, sizeof c41 - 1) == 0);
    CHECK(strstr(buf_str(&out), "\nC-92\tcrash\t27\t27\tthe node crashes at a collection") != NULL);
    CHECK(strstr(buf_str(&out), "\nC-92\tmay-crash\t27\t27\tthe node may crash (SIGSEGV or SIGABRT)") != NULL);
    buf_free(&out);
}

#define PORT_BURST(flag, extra) HDR "tracer process\nprocess a b\ntracer port\ntrace a on " flag "\n" extra \
                               "kill_all tracer a b\n"
#define C502(r)                                                                                             \
    "% otp " #r " follows C-502 at step 3: the node may crash (SIGSEGV) once processes traced by a port for " \
    "running_procs or running are killed while they run dirty, in one burst with the port's owner, or not crash\n"

/* C-502 is predicted where a tracee of the port waits at its gate (in the gate's dirty NIF) traced for
 * running_procs or running when the burst kills it, on 25, 27 and 29, and nowhere else. */
static void test_port_owner_burst_may_crash_with_a_scheduling_tracee_at_its_gate(int *failures)
{
    notes_are(failures, PORT_BURST("running_procs", ""), 25, C502(25));
    notes_are(failures, PORT_BURST("running", ""), 29, C502(29));
    notes_are(failures, PORT_BURST("running_procs", ""), 0, "");
    notes_are(failures, PORT_BURST("procs", ""), 27, ""); /* not traced for scheduling */
    /* blocked in a receive, not at its gate: not running dirty */
    notes_are(failures, HDR "tracer process\nprocess a b\ntracer port\ntrace a on running_procs\na recv\n"
                            "kill_all tracer a b\n", 27, "");
}

#define C540(step)                                                                                        \
    "% otp 27 follows C-540 at step " #step ": the binary argument a call trace message makes of a match " \
    "context (a function tail-called with the rest of the binary it matches) reads one byte short once "    \
    "the process holding it has matched its first byte with the bit syntax\n"
#define MATCHING HDR "tracer process match_binaries\nprocess a\ntrace a on call\n"

/* Whether text's prediction for release holds want among its lines. */
static void stream_has(int *failures, const char *text, int release, const char *want, bool has)
{
    Buf got;
    buf_init(&got);
    RunFacts facts;
    run(failures, text, release, 0, &got, &facts);
    CHECK((strstr(buf_str(&got), want) != NULL) == has);
    buf_free(&got);
}

static void test_a_match_context_argument_reads_short_where_the_tracer_matches_it(int *failures)
{
    const char *sum = MATCHING "pattern tcs_shapes:bs_sum_a/2 [] local\na call tcs_shapes:bs_sum_a(<<1,2,3>>, 0)\n";
    notes_are(failures, sum, 27, C540(3));
    stream_has(failures, sum, 27, "{tcs_shapes,bs_sum_a,[<<3>>,1]}", true);
    stream_has(failures, sum, 27, "{tcs_shapes,bs_sum_a,[<<1,2,3>>,0]}", true); /* no match context yet */
    stream_has(failures, sum, 27, "{tcs_shapes,bs_sum_a,[<<>>,6]}", true);
    stream_has(failures, sum, 25, "{tcs_shapes,bs_sum_a,[<<2,3>>,1]}", true);
    stream_has(failures, sum, 0, "{tcs_shapes,bs_sum_a,[<<2,3>>,1]}", true);
    notes_are(failures, sum, 25, "");
    /* a tracer process that reads with BIFs only; an argument that is no match context; no arguments */
    notes_are(failures, HDR "tracer process\nprocess a\ntrace a on call\npattern tcs_shapes:bs_sum_a/2 [] local\n"
                            "a call tcs_shapes:bs_sum_a(<<1,2,3>>, 0)\n", 27, "");
    notes_are(failures, MATCHING "pattern tcs_target:id/1 [] local\na call tcs_target:id(<<1,2,3>>)\n", 27, "");
    notes_are(failures, HDR "tracer process match_binaries\nprocess a\ntrace a on call arity\n"
                            "pattern tcs_shapes:bs_sum_a/2 [] local\na call tcs_shapes:bs_sum_a(<<1,2,3>>, 0)\n", 27, "");
}

/* BLOCK-TOGETHER: where a release's node crashes at a step of a together block (C-560's
 * match_spec_test, OTP 27 and 29), the crash's evidence would name the block: the model refuses it
 * for those releases, and states it for 25 (which does not crash) and for the documents. */
static void test_a_crash_in_a_together_block_is_refused(int *failures)
{
    const char *text = HDR "tracer recorder\nprocess a b\ntogether\na ms_test [1] [{'_',[],[{trace,[],[send]}]}]\n"
                           "b send a x\nend\n";
    static const char why[] =
        "a step of a together block at which the release's node crashes (its crash evidence names the block, not the step) is"
        " not supported by model v1";
    for (int release = 0; release <= 29; release += release ? 2 : 25) {
        Buf got;
        buf_init(&got);
        Err e = {0};
        bool ran = attempt(failures, text, release, 0, &got, NULL, &e);
        CHECK(ran == (release < 27));
        if (!ran)
            CHECK_STR(e.msg, why);
        buf_free(&got);
    }
}

int main(void)
{
    int failures = 0;
    test_a_crash_in_a_together_block_is_refused(&failures);
    test_a_range_may_be_open_on_either_side(&failures);
    test_the_releases_tried_for_a_crash_are_those_a_crash_names(&failures);
    test_the_listing_has_one_line_of_five_fields_per_deviation(&failures);
    test_range_until_the_process_exits(&failures);
    test_range_ends_when_a_flag_or_a_session_goes(&failures);
    test_a_gc_step_ends_the_range_and_the_run(&failures);
    test_crash_at_keeps_the_steps_before(&failures);
    test_facts_say_whether_two_sessions_traced_collections(&failures);
    test_step_lines_wherever_a_release_crashes(&failures);
    test_stray_silent_shows_in_info_on_25_only(&failures);
    test_port_owner_burst_may_crash_with_a_scheduling_tracee_at_its_gate(&failures);
    test_a_match_context_argument_reads_short_where_the_tracer_matches_it(&failures);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
