/* test_phash2.c - erlang:phash2/1 as the model computes it (ref/vocab/phash2.c) against the values
 * live OTP 25, 27 and 29 nodes answered for the terms of phash2_terms.txt: phash2_live.h, written by
 * `PYTHONPATH=driver /usr/bin/python3 -m tcs_driver.phash2_table record`, which refuses to write
 * when releases disagree (driver/tests/test_phash2_table.py checks the header against the live
 * nodes again); and which terms the model leaves to the node (phash2_node_made). */
#include "check.h"
#include "phash2.h"
#include "phash2_live.h"

static Term *parse(Arena *a, const char *text, int *failures)
{
    size_t pos = 0;
    Term *t = NULL;
    Err err;
    bool ok = term_parse(a, text, &pos, 1, NULL, NULL, &t, &err);
    CHECK(ok && text[pos] == '\0');
    if (!ok)
        fprintf(stderr, "%s: %d:%d: %s\n", text, err.line, err.col, err.msg);
    return ok ? t : NULL;
}

/* every term of the live table hashes to what the nodes answered */
static void test_live_table(int *failures)
{
    Arena a = {0};
    for (size_t i = 0; i < sizeof PHASH2_LIVE / sizeof PHASH2_LIVE[0]; i++) {
        Term *t = parse(&a, PHASH2_LIVE[i].term, failures);
        if (!t)
            continue;
        CHECK(!phash2_node_made(t));
        long long got = phash2_value(t);
        if (got != PHASH2_LIVE[i].hash) {
            fprintf(stderr, "phash2(%s): model %lld, live %lld\n", PHASH2_LIVE[i].term, got, PHASH2_LIVE[i].hash);
            (*failures)++;
        }
    }
    arena_free(&a);
}

/* the order in which a map's pairs are written does not change its hash */
static void test_map_order(int *failures)
{
    Arena a = {0};
    Term *k[2] = {term_atom(&a, "a"), term_atom(&a, "b")}, *v[2] = {term_int(&a, 1), term_int(&a, 2)};
    Term *rk[2] = {k[1], k[0]}, *rv[2] = {v[1], v[0]};
    CHECK(phash2_value(term_map(&a, 2, k, v)) == phash2_value(term_map(&a, 2, rk, rv)));
    arena_free(&a);
}

/* pids, ports, references and funs are the node's, wherever they sit in the term */
static void test_node_made(int *failures)
{
    Arena a = {0};
    Term *pid = term_pid(&a, "p"), *port = term_port(&a, "x"), *ref = term_ref(&a);
    Term *fun = term_fun(&a, term_atom(&a, "ok"));
    CHECK(phash2_node_made(pid) == pid);
    Term *el[2] = {term_atom(&a, "a"), port};
    CHECK(phash2_node_made(term_tuple(&a, 2, el)) == port);
    CHECK(phash2_node_made(term_cons(&a, term_int(&a, 1), term_cons(&a, ref, term_nil(&a)))) == ref);
    CHECK(phash2_node_made(term_cons(&a, term_int(&a, 1), fun)) == fun); /* an improper tail */
    Term *key = term_atom(&a, "k");
    CHECK(phash2_node_made(term_map(&a, 1, &key, &pid)) == pid);
    CHECK(phash2_node_made(term_map(&a, 1, &pid, &key)) == pid);
    CHECK(!phash2_node_made(term_map(&a, 1, &key, &key)));
    CHECK(phash2_node_made(term_external(&a, TK_PID)));
    arena_free(&a);
}

int main(void)
{
    int n = 0, *failures = &n;
    test_live_table(failures);
    test_map_order(failures);
    test_node_made(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
