/* fuzz_parser.c - libFuzzer target: any bytes through the model's front door (scenario_parse:
 * UTF-8, statements, terms) and, when they parse, through everything a case goes on to
 * (the simulation with rule annotations, the plan, the meta JSON). Built by `./tcs
 * fuzz-parser` with clang -fsanitize=fuzzer,address,undefined; a crash, a leak, undefined
 * behaviour or an input that hangs is a finding. Seeded with the corpus (cases/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "plan.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Guarantees: returns 0 for every input (libFuzzer's contract); the model decides the rest. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return 0; /* scenario_load refuses a NUL at the door: never reaches the parser */
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    Arena a;
    arena_init(&a);
    Scenario sc;
    Err err = {0};
    if (scenario_parse(&a, "fuzz.tcs", text, &sc, &err)) {
        Stream s;
        stream_init(&s, sc.id, true);
        if (run_scenario(&a, &sc, &s, &err)) {
            Buf out;
            buf_init(&out);
            plan_print(&out, &sc);
            meta_print(&out, &sc);
            buf_free(&out);
        }
        stream_free(&s);
    }
    arena_free(&a);
    free(text);
    return 0;
}
