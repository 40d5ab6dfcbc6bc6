/* test_scenario.c - the case-file parser: every error with its exact LINE:COL and message,
 * the fields of a parsed case, the limits, and scenario_load's file checks. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "scenario.h"

#define HDR "case x\nrules A\ndesc \"d\"\notp 1\n"
#define H HDR "tracer recorder\nprocess a b\n" /* steps start on line 7 */

/* "OK" or "LINE:COL: message" for parsing text. */
static void parse(int *failures, const char *text, const char *want)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    char got[400];
    if (scenario_parse(&a, "f.tcs", text, &sc, &e))
        snprintf(got, sizeof got, "OK");
    else
        snprintf(got, sizeof got, "%d:%d: %s", e.line, e.col, e.msg);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "input:\n%s\n", text);
    CHECK_STR(got, want);
    arena_free(&a);
}

static void test_header_errors(int *failures)
{
    parse(failures, "", "1:1: missing 'case' statement");
    parse(failures, "case x\nrules A\n", "3:1: missing 'desc' statement");
    parse(failures, HDR, "5:1: missing 'tracer' statement");
    parse(failures, HDR "features f\n", "6:1: missing 'tracer' statement");
    parse(failures, HDR "tracer recorder\n", "6:1: missing 'process' statement");
    parse(failures, "rules A\n", "1:1: 'rules' out of order: expected 'case' here");
    parse(failures, "bogus\n", "1:1: unknown keyword 'bogus': expected 'case' here (header: case, rules, desc, otp)");
    parse(failures, "tracer\n", "1:1: unexpected 'tracer': expected 'case' here (header: case, rules, desc, otp)");
    parse(failures, "Foo x\n", "1:1: unexpected 'Foo': expected 'case' here (header: case, rules, desc, otp)");
    parse(failures, "case\n", "1:5: case id must match [a-z][a-zA-Z0-9_]*");
    parse(failures, "case 9x\n", "1:6: case id must match [a-z][a-zA-Z0-9_]*");
    parse(failures, "case x extra\n", "1:8: unexpected text after the statement");
    parse(failures, "case x\nrules EV-SEND bad\n", "2:15: 'bad' is not a valid rule ID");
    parse(failures, "case x\nrules EV-SEND E_1\n", "2:15: 'E_1' is not a valid rule ID");
    parse(failures, "case x\nrules\n", "2:6: 'rules' needs at least one rule ID");
    parse(failures, "case x\nrules A\ndesc d\n", "3:6: desc needs a double-quoted string");
    parse(failures, "case x\nrules A\ndesc \"abc\n", "3:6: unterminated string");
    parse(failures, "case x\nrules A\ndesc \"a\\n\"\n", "3:8: only \\\" and \\\\ escapes are allowed in desc");
    parse(failures, "case x\nrules A\ndesc \"d\" x\n", "3:10: unexpected text after the statement");
    parse(failures, "case x\nrules A\ndesc \"d\"\notp abc\n", "4:5: otp must be an integer");
    parse(failures, "case x\nrules A\ndesc \"d\"\notp 0\n", "4:5: otp must be a positive release number");
    parse(failures, "case x\nrules A\ndesc \"d\"\notp 1 2\n", "4:7: unexpected text after the statement");
    parse(failures, "case x\nrules A\ndesc \"d\"\notp [\n", "4:6: expected a term, found end of line");
    parse(failures, HDR "process a\n", "5:1: unexpected 'process': expected 'features', 'tries' or 'tracer'");
    parse(failures, HDR "callbacks trace\n", "5:1: unexpected 'callbacks': expected 'features', 'tries' or 'tracer'");
    parse(failures, HDR "answer send trace\n", "5:1: unexpected 'answer': expected 'features', 'tries' or 'tracer'");
    parse(failures, HDR "bogus\n", "5:1: unknown keyword 'bogus': expected 'features', 'tries' or 'tracer'");
    parse(failures, HDR "features Bad\n", "5:10: 'Bad' is not a valid feature");
    parse(failures, HDR "tracer nope\n", "5:8: tracer must be 'recorder', 'erl_msg_tracer' or 'process'");
    parse(failures, HDR "tracer\n", "5:7: tracer must be 'recorder', 'erl_msg_tracer' or 'process'");
    parse(failures, HDR "tracer recorder x\n", "5:17: unexpected text after the statement");
    /* a statement written on the line of another gets a hint */
    parse(failures, HDR "tracer recorder callbacks enabled trace\nprocess a\n",
          "5:17: unexpected text after the statement ('callbacks' is a statement of its own line)");
    parse(failures, HDR "tracer recorder answer send discard\nprocess a\n",
          "5:17: unexpected text after the statement ('answer' is a statement of its own line)");
    parse(failures, H "a send b hi trace a on send",
          "7:13: unexpected text after the statement ('trace' is a statement of its own line)");
}

static void test_tracer_opt_errors(int *failures)
{
#define T HDR "tracer recorder\n"
#define E HDR "tracer erl_msg_tracer\n"
    parse(failures, E "callbacks trace\n", "6:1: 'callbacks' is not allowed with tracer erl_msg_tracer");
    parse(failures, E "answer send trace\n", "6:1: 'answer' is not allowed with tracer erl_msg_tracer");
    parse(failures, T "callbacks trace_send trace\n", "6:22: unknown callback name 'trace'");
    parse(failures, T "callbacks trace_send trace_send\n", "6:22: callback 'trace_send' listed twice");
    parse(failures, T "callbacks\n", "6:10: 'callbacks' needs at least one callback name");
    parse(failures, T "answer send\n", "6:12: expected trace, discard or remove");
    parse(failures, T "answer send explode\n", "6:13: unknown answer 'explode' (expected trace, discard or remove)");
    parse(failures, T "answer bogus trace\n", "6:8: unknown tag 'bogus' in answer");
    parse(failures, T "answer 42 trace\n", "6:8: the answer tag must be an atom");
    parse(failures, T "answer send trace extra\n", "6:19: unexpected text after the statement");
    parse(failures, T "answer send remove\nanswer send trace\n", "7:8: answer for tag 'send' given twice");
    parse(failures, T "answer default discard\nanswer default trace\n", "7:8: answer for default given twice");
    parse(failures, T "trace a on send\n", "6:1: unexpected 'trace': expected 'callbacks', 'answer', 'session' or 'process'");
    parse(failures, T "pattern x\n", "6:1: unexpected 'pattern': expected 'callbacks', 'answer', 'session' or 'process'");
    parse(failures, T "bogus\n", "6:1: unknown keyword 'bogus': expected 'callbacks', 'answer', 'session' or 'process'");
    parse(failures, T "relation x > y\n", "6:1: unexpected 'relation': expected 'callbacks', 'answer', 'session' or 'process'");
    parse(failures, T "process A\n", "6:9: 'A' is not a process name");
    parse(failures, T "process tracer\n", "6:9: 'tracer' is reserved for a tracer state process");
    parse(failures, T "process meta\n", "6:9: 'meta' is reserved for a tracer state process");
    parse(failures, T "process a a\n", "6:11: duplicate process 'a'");
    parse(failures, T "process\n", "6:8: 'process' needs at least one name");
#undef T
#undef E
}

static void test_step_errors(int *failures)
{
    parse(failures, H "rules A", "7:1: 'rules' is not allowed after 'process'");
    parse(failures, H "process c", "7:1: 'process' is not allowed after 'process'");
    parse(failures, H "c send a x", "7:1: undeclared process 'c'");
    parse(failures, H "c bogus a x", "7:1: unknown keyword 'c'");
    parse(failures, H "Q send a x", "7:1: unknown keyword 'Q'");
    parse(failures, H "tracer send a x", "7:1: 'tracer' is not allowed after 'process'");
    parse(failures, H "bogus", "7:1: unknown keyword 'bogus'");
    /* trace */
    parse(failures, H "trace a maybe", "7:9: expected 'on' or 'off'");
    parse(failures, H "trace a", "7:8: expected 'on' or 'off'");
    parse(failures, H "trace a on", "7:11: expected at least one trace flag");
    parse(failures, H "trace a on bogus",
          "7:12: unknown trace flag 'bogus' (write it quoted to pass it to erlang:trace/3 anyway)");
    parse(failures, H "trace a on tracer", "7:12: the harness gives the tracer: 'tracer' is not allowed as a flag");
    parse(failures, H "trace a on {meta,x}", "OK"); /* no flag: badarg (FLAGS-BADARG) */
    parse(failures, H "trace a on {tracer,x}", "OK"); /* a tracer the step names (TRACER-OPTION) */
    /* with a process spec too (000's example); the model refuses a state not the case's */
    parse(failures, H "trace all on send {tracer,recorder,[]}", "OK");
    parse(failures, H "pattern tcs_target:id/1 [] {meta,recorder,fun() -> x end}", "OK");
    parse(failures, H "pattern tcs_target:id/1 [] {local,x}", "7:28: a trace_pattern option must be an atom");
    /* <meta> only in a legacy pattern's options ({meta, <meta>}, CALL-META-PROCESS) */
    parse(failures, H "pattern tcs_target:id/1 [] {meta,<meta>}", "OK");
    parse(failures, H "a send b <meta>", "7:10: unknown process <meta> (not declared or not yet spawned)");
    parse(failures, H "a call tcs_target:id(make_ref())", "7:22: a fun or make_ref() may appear only in a tracer "
                                                         "state, a tracer option or as a spawn's entry point "
                                                         "fun() -> T end (model v1)");
    parse(failures, H "tracer unload\ntracer reload", "OK");
    parse(failures, HDR "tracer erl_msg_tracer\nprocess a\ntracer unload",
          "7:1: 'tracer unload' and 'tracer reload' need the recorder as the tracer");
    parse(failures, HDR "tracer recorder state {#{a => <tracer>}, fun() -> ok end}\nprocess a\n", "OK");
    parse(failures, HDR "tracer recorder state <a>\nprocess a\n",
          "5:23: unknown process <a> (not declared or not yet spawned)");
    parse(failures, H "trace a on {", "7:13: expected a term, found end of line");
    parse(failures, H "trace c on send", "7:7: undeclared process 'c'");
    parse(failures, H "trace a on send {}", "OK"); /* no flag: erlang:trace/3 raises badarg */
    parse(failures, H "trace new on send 'no_such_flag' 42", "OK");
    parse(failures, H "trace existing_processes off all", "OK");
    /* process specs are reserved names */
    parse(failures, HDR "tracer recorder\nprocess a new", "6:11: 'new' is reserved for the process spec of erlang:trace/3");
    parse(failures, H "a spawn all", "7:9: 'all' is reserved for the process spec of erlang:trace/3");
    parse(failures, H "a spawn_link b", "7:14: process 'b' already exists (spawn_link needs a new name)");
    /* info */
    parse(failures, H "info a", "7:7: expected 'flags' or 'tracer'");
    parse(failures, H "info a bogus", "7:8: expected 'flags' or 'tracer'");
    parse(failures, H "info a flags x", "7:14: unexpected text after the statement");
    parse(failures, H "info all flags", "7:6: undeclared process 'all'");
    parse(failures, H "info new_processes tracer", "OK");
    parse(failures, HDR "tracer recorder\ninfo a flags", "6:1: unexpected 'info': expected 'callbacks', 'answer', 'session' or 'process'");
    /* tracer exit */
    parse(failures, H "tracer exit", "7:12: expected a term, found end of line");
    parse(failures, H "tracer exit normal x", "7:20: unexpected text after the statement");
    parse(failures, H "tracer link a", "7:1: 'tracer' is not allowed after 'process'");
    parse(failures, H "tracer", "7:1: 'tracer' is not allowed after 'process'");
    parse(failures, H "trace", "7:6: expected a process name, found end of line");
    /* pattern */
    parse(failures, H "pattern :id/1 true global", "7:9: unexpected character ':' in term");
    parse(failures, H "pattern 42:id/1 true global", "7:9: the module must be an atom");
    parse(failures, H "pattern lists:id/1 true global",
          "7:9: only the exact target lists:seq/2 of module 'lists' is supported by model v1 (a wildcard or "
          "another function of a library module matches differently per release)");
    parse(failures, H "pattern bogus:id/1 true global",
          "7:9: module 'bogus' is not supported by model v1 (tcs_target, tcs_late, tcs_nif, tcs_shapes, '_', or the "
          "library targets erlang:phash2/1, erlang:apply/2 and lists:seq/2)");
    parse(failures, H "pattern tcs_target/1 true global", "7:19: expected ':' after the module name");
    parse(failures, H "pattern on_load", "7:16: expected a term, found end of line");
    parse(failures, H "pattern tcs_target:/1 true global", "7:20: unexpected character '/' in term");
    parse(failures, H "pattern tcs_target:id true global", "7:22: expected '/Arity' after the function name");
    parse(failures, H "pattern tcs_target:id/x true global", "7:23: the arity must be a non-negative integer or '_'");
    parse(failures, H "pattern tcs_target:id/-1 true global", "7:23: the arity must be a non-negative integer or '_'");
    parse(failures, H "pattern tcs_target:id/99999999999999999999 true global", "7:23: the arity must be a non-negative integer or '_'");
    parse(failures, H "pattern tcs_target:id/1 true 42", "7:30: a trace_pattern option must be an atom");
    parse(failures, H "pattern tcs_target:id/1 true call_memory",
          "7:30: option 'call_memory' needs 'otp 26' or later (it is new in OTP 26)");
    parse(failures, H "pattern tcs_target:id/1 {x", "7:27: expected '}', found end of line");
    parse(failures, H "pattern tcs_target:id/1 pause local",
          "7:25: 'pause' with options other than call_count, call_time and call_memory (undefined in 003, "
          "function/4) is not supported by model v1");
    parse(failures, H "pattern tcs_target:id/1 restart call_time meta",
          "7:25: 'restart' with options other than call_count, call_time and call_memory (undefined in 003, "
          "function/4) is not supported by model v1");
    parse(failures, H "info {tcs_target,id} call_count",
          "7:6: expected {Module,Function,Arity} of a fixture module (tcs_target, tcs_late or tcs_nif) or a library "
          "target ({erlang,phash2,1}, {erlang,apply,2} or {lists,seq,2})");
    parse(failures, H "info {tcs_target,id,x} call_count",
          "7:6: expected {Module,Function,Arity} of a fixture module (tcs_target, tcs_late or tcs_nif) or a library "
          "target ({erlang,phash2,1}, {erlang,apply,2} or {lists,seq,2})");
    parse(failures, H "info {tcs_target,id,1}", "7:23: expected a function's item: traced, match_spec, meta, "
          "meta_match_spec, call_count, call_time, call_memory or all");
    parse(failures, H "info {tcs_target,id,1} call_memory",
          "7:24: 'call_memory' of a function needs 'otp 26' or later (call_memory is new in OTP 26)");
    parse(failures, H "info {tcs_target,id,1} call_count extra", "7:35: unexpected text after the statement");
    parse(failures, H "pattern tcs_target:id/1 [{'_',[],[{float,1}]}] local",
          "7:25: match spec function float/1 is not supported by model v1");
    parse(failures, "case x\nrules R-1\ndesc \"d\"\notp 25\ntracer recorder\ncallbacks trace_call\nprocess a\n"
          "pattern tcs_target:id/1 true meta",
          "8:30: option 'meta' with a tracer that has trace_call/5 is not supported by model v1: OTP 25 "
          "aborts (CONFORMANCE.md, Clarification C-10)");
    /* call */
    parse(failures, H "a call tcs_target:id", "7:21: expected '(' after the function name");
    parse(failures, H "a call tcs_target:id()",
          "7:19: tcs_target:id/0 is not supported by model v1 (see cases/README.md, \"The traced functions\")");
    parse(failures, H "a call tcs_target:id(1, 2)",
          "7:19: tcs_target:id/2 is not supported by model v1 (see cases/README.md, \"The traced functions\")");
    parse(failures, H "a call tcs_target:nope(1)",
          "7:19: tcs_target:nope/1 is not supported by model v1 (see cases/README.md, \"The traced functions\")");
    parse(failures, H "a call tcs_target:inner(1)",
          "7:19: tcs_target:inner/1 is not supported by model v1 (see cases/README.md, \"The traced functions\")");
    parse(failures, H "a call tcs_target:module_info()",
          "7:19: tcs_target:module_info/0 is not supported by model v1 (see cases/README.md, \"The traced functions\")");
    parse(failures, H "a call tcs_target:id(1 2)", "7:24: expected ',' or ')' in the argument list");
    parse(failures, H "a call tcs_target:id(1", "7:23: expected ',' or ')' in the argument list");
    parse(failures, H "a call tcs_target:id(1,", "7:24: expected a term, found end of line");
    parse(failures, H "a call tcs_target:twice(1) x", "7:28: expected 'direct', 'fun' or the end of the line after the call");
    parse(failures, H "a call bogus:id(1)", "7:8: module 'bogus' is not supported by model v1 (tcs_target, tcs_late, "
          "tcs_nif, tcs_shapes, or the library targets erlang:phash2/1 and lists:seq/2)");
    parse(failures, H "a call (1)", "7:8: expected Module:Function");
    parse(failures, H "a call tcs_target id(1)", "7:18: expected ':' after the module name");
    parse(failures, H "a call tcs_target:(1)", "7:19: expected a function name");
    /* actor steps */
    parse(failures, H "a", "7:2: expected a step after the process name");
    parse(failures, H "a explode", "7:3: unknown step 'explode'");
    parse(failures, H "a send b", "7:9: expected a term, found end of line");
    parse(failures, H "a send b {1,2} x", "7:16: unexpected text after the statement");
    parse(failures, H "a send", "7:7: expected a process name, found end of line");
    parse(failures, H "a link 1x", "7:8: '1x' is not a process name");
    parse(failures, H "a link Ab", "7:8: 'Ab' is not a process name");
    parse(failures, H "a link tracer", "7:8: undeclared process 'tracer'");
    parse(failures, H "a link c", "7:8: undeclared process 'c'");
    parse(failures, H "a link a", "7:8: linking a process to itself is not supported by model v1");
    parse(failures, H "a unlink a", "7:10: linking a process to itself is not supported by model v1");
    parse(failures, H "a recv soon", "7:8: expected 'after', 'match', 'times' or end of line");
    parse(failures, H "a recv after -5", "7:14: timeout must not be negative");
    parse(failures, H "a recv after x", "7:14: timeout must be an integer");
    parse(failures, H "a recv after 5 x", "7:16: unexpected text after the statement");
    parse(failures, H "a recv times 0", "7:14: the count must be 1 to 10000");
    parse(failures, H "a recv times 10001", "7:14: the count must be 1 to 10000");
    parse(failures, H "a recv times x", "7:14: the count must be an integer");
    parse(failures, H "a wait 0 while b sends x", "7:8: the wait's milliseconds must be 1 to 5000");
    parse(failures, H "a wait 5001 while b sends x", "7:8: the wait's milliseconds must be 1 to 5000");
    parse(failures, H "a wait 2000 until b sends x", "7:13: expected 'while B sends T' after the wait's milliseconds");
    parse(failures, H "a wait 2000 while c sends x", "7:19: undeclared process 'c'");
    parse(failures, H "a wait 2000 while b gives x", "7:21: expected 'sends T' after the sending process");
    parse(failures, H "a wait 2000 while b sends", "7:26: expected a term, found end of line");
    parse(failures, H "suspend", "7:8: expected a process name, found end of line");
    parse(failures, H "status a b", "7:10: unexpected text after the statement");
    parse(failures, H "a send b hi times", "7:18: expected a term, found end of line");
    parse(failures, H "a send b hi times 3 x", "7:21: unexpected text after the statement");
    parse(failures, H "a spawn", "7:8: expected the name of the new process");
    parse(failures, H "a spawn Big", "7:9: expected the name of the new process");
    parse(failures, H "a spawn b", "7:9: process 'b' already exists (spawn needs a new name)");
    parse(failures, H "a spawn tracer", "7:9: process 'tracer' already exists (spawn needs a new name)");
    parse(failures, H "a spawn c\na spawn c", "8:9: process 'c' already exists (spawn needs a new name)");
    parse(failures, H "a register 42", "7:12: a registered name must be an atom");
    parse(failures, H "a register undefined", "7:12: 'undefined' cannot be a registered name");
    parse(failures, H "a unregister", "7:13: expected a term, found end of line");
    parse(failures, H "a exit", "7:7: expected a term, found end of line");
    /* comments: '%' inside quoted atoms and strings does not start a comment */
    parse(failures, H "a send b 'it''s % x'", "7:14: unexpected text after the statement");
    parse(failures, H "a send b \"100%\" x % comment", "7:17: unexpected text after the statement");
    parse(failures, H "a send b 'ab\\", "7:13: unsupported escape sequence in model v1"); /* '\' ends the line */
    parse(failures, H "a send b <<99999999999999999999>>", "7:12: a segment's value beyond 64 bits is not supported by model v1");
}

static void test_good(int *failures)
{
    const char *good =
        "% a comment line\n"
        "case good_1   % trailing comment\n"
        "rules EV-SEND EV-LINK\n"
        "desc \"say \\\"hi\\\" \\\\ 50%\"\n"
        "otp 26\n"
        "features f1 f_2\n"
        "tracer recorder\n"
        "callbacks enabled_send trace_send\n"
        "answer default discard\n"
        "answer send remove\n"
        "answer 'receive' trace\n"
        "process a b\n"
        "\t\n"
        "trace a on send 'receive' timestamp\n"
        "trace b off call\n"
        "pattern tcs_target:id/1 [{'_',[],[{return_trace}]}] local\n"
        "pattern tcs_target:id/1 [{'_',[],[{message,{tag,42}}]}] global\n"
        "pattern '_':'_'/'_' false\n"
        "pattern on_load true local meta\n"
        "a send b {hi, <a>, 'a\\'%'}\n"
        "b recv\n"
        "b recv after 0\n"
        "a call tcs_target:twice( [x] )\n"
        "a call tcs_target:tail(2)\n"
        "a spawn c\n"
        "c link a\n"
        "c unlink a\n"
        "c register r\n"
        "c unregister r\n"
        "c exit normal\n"
        "trace new on procs {x}\n"
        "a spawn_link d\n"
        "info new flags\n"
        "info d tracer\n"
        "tracer exit kill";
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    bool ok = scenario_parse(&a, "good_1.tcs", good, &sc, &e);
    if (!ok)
        fprintf(stderr, "%d:%d: %s\n", e.line, e.col, e.msg);
    CHECK(ok);
    if (ok) {
        CHECK_STR(sc.id, "good_1");
        CHECK(sc.id_line == 2 && sc.id_col == 6);
        CHECK(sc.nrules == 2);
        CHECK_STR(sc.rules[1], "EV-LINK");
        CHECK_STR(sc.desc, "say \"hi\" \\ 50%");
        CHECK(sc.otp == 26);
        CHECK(sc.nfeatures == 2);
        CHECK_STR(sc.features[1], "f_2");
        CHECK(sc.tracer.kind == TRACER_RECORDER);
        CHECK(sc.tracer.callbacks != 0);
        CHECK(sc.tracer.default_answer == ANS_DISCARD);
        CHECK(sc.tracer.nanswers == 2);
        CHECK_STR(sc.tracer.answers[0].tag, "send");
        CHECK(sc.tracer.answers[0].answer == ANS_REMOVE);
        CHECK_STR(sc.tracer.answers[1].tag, "receive");
        CHECK(sc.tracer.answers[1].answer == ANS_TRACE);
        CHECK(sc.nprocs == 2);
        CHECK(sc.nsteps == 22);
        CHECK(sc.steps[17].kind == ST_TRACE && sc.steps[17].spec == SPEC_NEW && sc.steps[17].bad_flag);
        CHECK(sc.steps[17].flags[0] == FL_PROCS && sc.steps[17].flags[1] == FL_COUNT);
        CHECK(sc.steps[18].kind == ST_SPAWN_LINK);
        CHECK_STR(sc.steps[18].other, "d");
        CHECK(sc.steps[19].kind == ST_INFO && sc.steps[19].spec == SPEC_NEW);
        CHECK_STR(sc.steps[19].item, "flags");
        CHECK(sc.steps[20].kind == ST_INFO && sc.steps[20].spec == SPEC_PID);
        CHECK_STR(sc.steps[20].actor, "d");
        CHECK(sc.steps[21].kind == ST_TRACER_EXIT && term_is_atom(sc.steps[21].term, "kill"));
        CHECK(!sc.steps[0].bad_flag && sc.steps[0].spec == SPEC_PID);
        CHECK(sc.steps[16].kind == ST_EXIT && term_is_atom(sc.steps[16].term, "normal"));
        CHECK(sc.steps[0].kind == ST_TRACE && sc.steps[0].on && sc.steps[0].nflags == 3);
        CHECK(sc.steps[0].line == 14 && sc.steps[0].col == 1 && sc.steps[0].actor_col == 7);
        CHECK(sc.steps[1].kind == ST_TRACE && !sc.steps[1].on);
        CHECK(sc.steps[2].kind == ST_PATTERN && sc.steps[2].nopts == 1 && !sc.steps[2].ms_invalid);
        CHECK_STR(sc.steps[2].opts[0], "local");
        CHECK_STR(sc.steps[2].module, "tcs_target");
        CHECK(sc.steps[2].arity == 1);
        CHECK(sc.steps[3].kind == ST_PATTERN && sc.steps[3].nopts == 1 && sc.steps[3].ms_invalid);
        CHECK_STR(sc.steps[3].ms_invalid, "MS-UNKNOWN-FUNCTION");
        CHECK(sc.steps[4].nopts == 0 && sc.steps[4].arity == ANY_ARITY);
        CHECK_STR(sc.steps[4].module, "_");
        CHECK_STR(sc.steps[4].fn, "_");
        CHECK(sc.steps[5].module == NULL && sc.steps[5].nopts == 2);
        CHECK_STR(sc.steps[5].opts[1], "meta");
        CHECK(sc.steps[6].kind == ST_SEND && sc.steps[6].term_col == 10);
        Buf b;
        buf_init(&b);
        term_print(&b, sc.steps[6].term, PRINT_CANON);
        CHECK_STR(buf_str(&b), "{hi,<a>,'a\\'%'}");
        buf_free(&b);
        CHECK(sc.steps[7].kind == ST_RECV && !sc.steps[7].has_timeout);
        CHECK(sc.steps[8].kind == ST_RECV && sc.steps[8].has_timeout && sc.steps[8].timeout == 0);
        CHECK(sc.steps[9].kind == ST_CALL && term_list_length(sc.steps[9].args) == 1);
        CHECK(sc.steps[11].kind == ST_SPAWN);
        CHECK_STR(sc.steps[11].other, "c");
        CHECK(sc.steps[12].kind == ST_LINK && sc.steps[13].kind == ST_UNLINK);
        CHECK(sc.steps[14].kind == ST_REGISTER && term_is_atom(sc.steps[14].term, "r"));
        CHECK(sc.steps[15].kind == ST_UNREGISTER && sc.steps[15].term_col == 14);
    }
    CHECK_STR(answer_name(ANS_TRACE), "trace");
    CHECK_STR(answer_name(ANS_DISCARD), "discard");
    CHECK_STR(answer_name(ANS_REMOVE), "remove");
    e = (Err){0};
    CHECK(scenario_parse(&a, "e.tcs", HDR "tracer erl_msg_tracer\nprocess a\n", &sc, &e));
    CHECK(sc.tracer.kind == TRACER_ERL_MSG && sc.nsteps == 0 && sc.tracer.nanswers == 0 && sc.tracer.default_answer == ANS_TRACE);
    /* `times N`: the step N times, each a step of its own from the same line */
    e = (Err){0};
    CHECK(scenario_parse(&a, "t.tcs", H "b send a times times 3\na recv times 2\na recv", &sc, &e));
    CHECK(sc.nsteps == 6);
    CHECK(sc.steps[2].kind == ST_SEND && term_is_atom(sc.steps[2].term, "times") && sc.steps[2].line == 7);
    CHECK(sc.steps[4].kind == ST_RECV && sc.steps[4].line == 8 && !sc.steps[4].has_timeout && !sc.steps[4].term);
    CHECK(sc.steps[5].line == 9);
    arena_free(&a);
}

/* The fixed limits of the parser: one more than allowed is an error at the extra item;
 * processes and sessions have no limit. */
static void test_limits(int *failures)
{
    Buf t;
    char want[80];
    /* 256 rule IDs are fine, the 257th is one too many */
    buf_init(&t);
    buf_puts(&t, "case x\nrules");
    for (int i = 0; i < 257; i++)
        buf_puts(&t, " R");
    snprintf(want, sizeof want, "2:%d: too many rule IDs", 6 + 256 * 2 + 1);
    parse(failures, buf_str(&t), want);
    buf_free(&t);
    /* no cap on processes or sessions: 300 declared, 300 spawned, 20 sessions */
    buf_init(&t);
    buf_puts(&t, "case x\nrules A\ndesc \"d\"\notp 27\ntracer recorder\n");
    for (int i = 0; i < 20; i++)
        buf_printf(&t, "session s%02d tracer process\n", i);
    buf_puts(&t, "process");
    for (int i = 0; i < 300; i++)
        buf_printf(&t, " p%03d", i);
    for (int i = 0; i < 300; i++)
        buf_printf(&t, "\np000 spawn q%03d", i);
    buf_puts(&t, "\ncreate s19\nq299 send p299 hi");
    parse(failures, buf_str(&t), "OK");
    buf_free(&t);
    /* 33 flags in one trace step */
    buf_init(&t);
    buf_puts(&t, H "trace a on");
    for (int i = 0; i < 33; i++)
        buf_puts(&t, " send");
    snprintf(want, sizeof want, "7:%d: too many flags", 11 + 32 * 5 + 1);
    parse(failures, buf_str(&t), want);
    buf_free(&t);
    /* 257 call arguments */
    buf_init(&t);
    buf_puts(&t, H "a call tcs_target:id(");
    for (int i = 0; i < 257; i++)
        buf_puts(&t, i ? ",1" : "1");
    buf_puts(&t, ")");
    snprintf(want, sizeof want, "7:%d: too many arguments", 22 + 256 * 2);
    parse(failures, buf_str(&t), want);
    buf_free(&t);
    /* 33 pattern options: 32 are fine */
    buf_init(&t);
    buf_puts(&t, H "pattern tcs_target:id/1 true");
    for (int i = 0; i < 33; i++)
        buf_puts(&t, " local");
    snprintf(want, sizeof want, "7:%d: too many options", 30 + 32 * 6);
    parse(failures, buf_str(&t), want);
    buf_free(&t);
    /* the steps take what they need: no fixed number of them */
    buf_init(&t);
    buf_puts(&t, H);
    for (int i = 0; i < 20000; i++)
        buf_puts(&t, "a recv\n");
    parse(failures, buf_str(&t), "OK");
    buf_free(&t);
}

static void load(int *failures, const char *path, const char *content, size_t len, const char *want)
{
    if (content) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (!f)
            return;
        fwrite(content, 1, len, f);
        fclose(f);
    }
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    char got[400];
    if (scenario_load(&a, path, &sc, &e))
        snprintf(got, sizeof got, "OK %s", sc.id);
    else
        snprintf(got, sizeof got, "%d:%d: %s", e.line, e.col, e.msg);
    CHECK_STR(got, want);
    arena_free(&a);
    if (content)
        remove(path);
}

static void test_load(int *failures)
{
    static const char good[] = H;
    load(failures, "test_scenario_no_such_file.tcs", NULL, 0, "0:0: cannot read file");
    load(failures, "x.tcs", good, sizeof good - 1, "OK x");
    load(failures, "x", good, sizeof good - 1, "OK x");
    load(failures, "y.tcs", good, sizeof good - 1, "1:6: case id 'x' must equal the file name stem 'y'");
    load(failures, "xy.tcs", good, sizeof good - 1, "1:6: case id 'x' must equal the file name stem 'xy'");
    load(failures, "x.tcs.bak", good, sizeof good - 1, "1:6: case id 'x' must equal the file name stem 'x.tcs.bak'");
    load(failures, "x.tcs", "case x\0\n", 8, "1:1: file contains a NUL byte");
    load(failures, "x.tcs", "case\n", 5, "1:5: case id must match [a-z][a-zA-Z0-9_]*");
}

/* The driver-port steps: open_port X driver and port_control's three operations, as fields. */
static void test_driver_ports(int *failures)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    const char *text = H "a open_port x driver\na open_port y\nb port_control x busy\n"
                         "b port_control x not_busy\nb port_control x timer 250\n";
    CHECK(scenario_parse(&a, "f.tcs", text, &sc, &e));
    CHECK(sc.nsteps == 5);
    if (sc.nsteps == 5) {
        CHECK(sc.steps[0].kind == ST_OPEN_PORT && sc.steps[0].driver);
        CHECK(sc.steps[1].kind == ST_OPEN_PORT && !sc.steps[1].driver);
        CHECK(sc.steps[2].kind == ST_PORT_CONTROL);
        CHECK_STR(sc.steps[2].item, "busy");
        CHECK_STR(sc.steps[3].item, "not_busy");
        CHECK_STR(sc.steps[4].item, "timer");
        CHECK(sc.steps[4].timeout == 250);
    }
    arena_free(&a);
    parse(failures, H "a open_port y\nb port_control y busy",
          "8:16: port 'y' runs cat: port_control needs a port opened with 'open_port y driver'");
    parse(failures, H "a open_port x driver\nb port_control x timer -1",
          "8:24: the timer's milliseconds must be 0 to 60000");
}

/* A call step's path: apply/3 unless the line ends with `direct` (cases/README.md "Call paths"). */
static void test_call_paths(int *failures)
{
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err e = {0};
    const char *text = H "a call tcs_target:id(9)\na call erlang:phash2(\"S1\") direct\n"
                         "b call lists:seq(1,2) fun % a comment\n";
    CHECK(scenario_parse(&a, "f.tcs", text, &sc, &e));
    CHECK(sc.nsteps == 3);
    if (sc.nsteps == 3)
        CHECK(sc.steps[0].path == CALL_APPLY && sc.steps[1].path == CALL_DIRECT && sc.steps[2].path == CALL_FUN);
    arena_free(&a);
    parse(failures, H "a call tcs_target:id(9) indirect", "7:25: expected 'direct', 'fun' or the end of the line after the call");
    parse(failures, H "a call tcs_target:id(9) apply", "7:25: expected 'direct', 'fun' or the end of the line after the call");
    parse(failures, H "a call tcs_target:id(9) direct direct", "7:32: unexpected text after the statement");
}

int main(void)
{
    int n = 0, *failures = &n;
    test_header_errors(failures);
    test_tracer_opt_errors(failures);
    test_step_errors(failures);
    test_good(failures);
    test_limits(failures);
    test_load(failures);
    test_driver_ports(failures);
    test_call_paths(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
