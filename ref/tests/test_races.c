/* test_races.c - the table of the runtime's races (ref/races/races.c): a row for every race,
 * whose refusal and tags agree with what it asks. */
#include <stdlib.h>

#include "check.h"
#include "races.h"

/* Every race has a row with a rule and a limit a window can have (any number, or at least one). */
static void test_every_race_has_a_rule_and_a_limit(int *failures)
{
    for (int r = 0; r < RACE_COUNT; r++) {
        const RaceRow *row = races_row((Race)r);
        CHECK(row->rule && row->rule[0]);
        CHECK(row->limit == -1 || row->limit >= 1);
        CHECK(row->tpl && row->tpl[0]);
    }
}

/* A race refuses a remove answer at the tags it asks, which its template fires; it has a refusal
 * text exactly when it asks some. */
static void test_asked_tags_are_fired_and_refused(int *failures)
{
    for (int r = 0; r < RACE_COUNT; r++) {
        const RaceRow *row = races_row((Race)r);
        CHECK(!(row->asked & RACE_ASK_FIRST) || row->first);
        CHECK(!(row->asked & RACE_ASK_SECOND) || row->second);
        CHECK((row->asked != RACE_ASK_NONE) == (row->refusal != NULL));
        CHECK(!row->second || row->first);
    }
}

int main(void)
{
    int failures = 0;
    test_every_race_has_a_rule_and_a_limit(&failures);
    test_asked_tags_are_fired_and_refused(&failures);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
