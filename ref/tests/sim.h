/* sim.h - run a scenario text through the model and compare its stream (unit tests of the
 * model: test_model.c, test_msgpat.c, test_sessions.c). */
#ifndef TCS_TEST_SIM_H
#define TCS_TEST_SIM_H
#include <stdbool.h>

#include "check.h"
#include "plan.h"
#include "run.h"

#define HDR "case x\nrules A\ndesc \"d\"\notp 1\n"

/* Into got: the stream of text (no header line; with the rules of each line when explain),
 * or "PARSE LINE:COL: message" or "ERR LINE:COL: message". */
static void sim_stream(int *failures, const char *text, bool explain, Buf *got)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    if (!scenario_parse(&a, "x.tcs", text, &sc, &e)) {
        buf_printf(got, "PARSE %d:%d: %s", e.line, e.col, e.msg);
    } else {
        Stream s;
        stream_init(&s, "x", explain);
        if (run_scenario(&a, &sc, &s, &e)) {
            const char *body = strchr(buf_str(&s.text), '\n') + 1;
            CHECK(strncmp(buf_str(&s.text), "% tcs stream v1: x\n", 19) == 0);
            buf_puts(got, body);
        } else {
            buf_printf(got, "ERR %d:%d: %s", e.line, e.col, e.msg);
        }
        stream_free(&s);
    }
    arena_free(&a);
}

/* Checks that the plan of text (which must parse) holds each of the lines in want, NULL-ended. */
static inline void sim_plan_has(int *failures, const char *text, const char *const *want)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    CHECK(scenario_parse(&a, "x.tcs", text, &sc, &e));
    Buf out;
    buf_init(&out);
    plan_print(&out, &sc);
    for (; *want; want++)
        if (strstr(buf_str(&out), *want) == NULL)
            CHECK_STR(buf_str(&out), *want);
    buf_free(&out);
    arena_free(&a);
}

/* Checks the stream of text (see sim_stream) is want. */
static void sim_as(int *failures, const char *text, bool explain, const char *want)
{
    Buf got;
    buf_init(&got);
    sim_stream(failures, text, explain, &got);
    if (strcmp(buf_str(&got), want) != 0)
        fprintf(stderr, "input:\n%s\n", text);
    CHECK_STR(buf_str(&got), want);
    buf_free(&got);
}

/* The stream of text without rules. */
static void sim(int *failures, const char *text, const char *want)
{
    sim_as(failures, text, false, want);
}

#endif
