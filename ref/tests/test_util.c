/* test_util.c - buffers, the arena, stream lines, and the flag table. */
#include "arena.h"
#include "buf.h"
#include "check.h"
#include "dispatch.h"
#include "flags.h"
#include "stream.h"
#include "strmap.h"

static void test_buf(int *failures)
{
    Buf b;
    buf_init(&b);
    CHECK_STR(buf_str(&b), "");
    buf_printf(&b, "%s", ""); /* empty output appends nothing */
    CHECK(b.len == 0);
    CHECK_STR(buf_str(&b), "");
    buf_puts(&b, "ab");
    buf_putn(&b, "cdef", 2);
    buf_printf(&b, "<%d|%s>", 42, "x");
    CHECK_STR(buf_str(&b), "abcd<42|x>");
    CHECK(b.len == 10);
    for (int i = 0; i < 1000; i++) /* growth keeps the content */
        buf_puts(&b, "0123456789");
    CHECK(b.len == 10010);
    CHECK(strncmp(buf_str(&b), "abcd<42|x>0123", 14) == 0);
    CHECK(strcmp(buf_str(&b) + 10000, "0123456789") == 0);
    buf_free(&b);
    CHECK(b.len == 0);
    CHECK_STR(buf_str(&b), "");
    CHECK(!buf_read_file(&b, "test_util_no_such_file"));
    CHECK(b.len == 0);
}

static void test_arena(int *failures)
{
    Arena a;
    arena_init(&a);
    unsigned char *z = arena_alloc(&a, 0); /* still a distinct, usable pointer */
    unsigned char *p = arena_alloc(&a, 3);
    CHECK(z != NULL && p != NULL && z != p);
    CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0);
    CHECK((size_t)(p - z) % sizeof(max_align_t) == 0);
    unsigned char *big = arena_alloc(&a, 100000); /* larger than a block */
    CHECK(big[0] == 0 && big[99999] == 0);
    char *s = arena_strndup(&a, "hello", 3);
    CHECK_STR(s, "hel");
    arena_reset(&a); /* empty again, one block kept */
    CHECK(a.head != NULL);
    CHECK_STR(arena_strndup(&a, "again", 5), "again");
    arena_free(&a);
    CHECK(a.head == NULL);
}

/* Both growths keep the items and zero the rest, for an array small or large (a block of its own). */
static void test_arena_grow(int *failures)
{
    Arena a;
    arena_init(&a);
    for (int moving = 0; moving < 2; moving++) {
        int *v = NULL;
        size_t cap = 0, n = 0;
        for (; n < 100000; n++) {
            v = moving ? arena_grow_moving(&a, v, n, &cap, sizeof *v) : arena_grow(&a, v, n, &cap, sizeof *v);
            v[n] = (int)n;
            (void)arena_strndup(&a, "between", 7); /* the array is not the arena's last allocation */
        }
        CHECK(cap >= n && v[cap - 1] == 0);
        bool same = true;
        for (size_t i = 0; i < n; i++)
            same &= v[i] == (int)i;
        CHECK(same);
    }
    arena_free(&a);
}

static void test_strmap_key(int *failures)
{
    Arena a;
    arena_init(&a);
    StrMap m = {0};
    char probe[] = "send";
    CHECK(strmap_key(&m, probe) == NULL);
    const char *kept = arena_strndup(&a, probe, 4);
    strmap_add(&m, &a, kept, 0);
    CHECK(strmap_key(&m, probe) == kept);
    CHECK(strmap_key(&m, "recv") == NULL);
    arena_free(&a);
}

static void test_stream(int *failures)
{
    Stream s;
    stream_init(&s, "c1", true);
    stream_line(&s, 'N', "a", "R-1 R-2");
    stream_line(&s, 'I', "b", "");
    stream_line(&s, 'N', "c", NULL);
    CHECK_STR(buf_str(&s.text), "% tcs stream v1: c1\nN a  % R-1 R-2\nI b\nN c\n");
    stream_free(&s);
    stream_init(&s, "c2", false);
    stream_line(&s, 'N', "a", "R-1");
    CHECK_STR(buf_str(&s.text), "% tcs stream v1: c2\nN a\n");
    stream_free(&s);
    /* a bounded stream gives back, in order, what it moved to its file */
    Stream whole, bounded;
    stream_init(&whole, "c3", false);
    stream_init(&bounded, "c3", false);
    stream_bound(&bounded);
    for (int i = 0; i < 50000; i++) {
        char body[32];
        snprintf(body, sizeof body, "line %d", i);
        stream_line(&whole, 'N', body, NULL);
        stream_line(&bounded, 'N', body, NULL);
        if (i % 1000 == 0) {
            stream_comment(&whole, "c");
            stream_comment(&bounded, "c");
            stream_puts(&whole, "A raw\n");
            stream_puts(&bounded, "A raw\n");
        }
    }
    CHECK(bounded.text.len < whole.text.len && stream_size(&bounded) == whole.text.len);
    FILE *f = tmpfile();
    CHECK(f && stream_write(&bounded, f) && stream_write(&bounded, f)); /* twice: it stays whole */
    Buf back;
    buf_init(&back);
    char chunk[4096];
    size_t got;
    rewind(f);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_putn(&back, chunk, got);
    fclose(f);
    CHECK(back.len == 2 * whole.text.len);
    CHECK(memcmp(back.data, whole.text.data, whole.text.len) == 0);
    CHECK(memcmp(back.data + whole.text.len, whole.text.data, whole.text.len) == 0);
    buf_free(&back);
    stream_free(&whole);
    stream_free(&bounded);
    CHECK(stream_class("trace_status") == 'I');
    CHECK(stream_class("send") == 'N');
}

static void test_flags(int *failures)
{
    Flag f;
    for (int i = 0; i < FL_COUNT; i++) {
        CHECK(flag_lookup(flag_name((Flag)i), &f) == 1);
        CHECK(f == (Flag)i);
    }
    CHECK_STR(flag_name(FL_RECEIVE), "receive");
    CHECK(flag_lookup("set_on_spawn", &f) == 1 && f == FL_SET_ON_SPAWN);
    CHECK(flag_lookup("tracer", &f) == 0);
    CHECK(flag_lookup("nope", &f) == -1);
    const FlagSet T = FLAG_BIT(FL_TIMESTAMP), M = FLAG_BIT(FL_MONOTONIC_TIMESTAMP),
                  S = FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP);
    CHECK(flags_timestamp_flag(0) == FL_COUNT);
    CHECK(flags_timestamp_flag(FLAG_BIT(FL_SEND)) == FL_COUNT);
    CHECK(flags_timestamp_flag(M) == FL_MONOTONIC_TIMESTAMP);
    CHECK(flags_timestamp_flag(M | S) == FL_STRICT_MONOTONIC_TIMESTAMP);
    CHECK(flags_timestamp_flag(M | S | T) == FL_TIMESTAMP);
    CHECK(flags_timestamp_flag(T | M) == FL_TIMESTAMP);
    CHECK(flags_timestamp_kind(0) == NULL);
    CHECK_STR(flags_timestamp_kind(S | M), "strict_monotonic");
    /* every category has its flag; scheduling tags need running or exiting */
    const FlagSet all = (1u << FL_COUNT) - 1;
    CHECK(flags_cover(all, CAT_SEND) && flags_cover(all, CAT_RECEIVE) && flags_cover(all, CAT_CALL) &&
          flags_cover(all, CAT_PROCS));
    CHECK(flags_cover(FLAG_BIT(FL_GARBAGE_COLLECTION), CAT_GARBAGE_COLLECTION));
    CHECK(flags_cover(FLAG_BIT(FL_PORTS), CAT_PORTS) && !flags_cover(FLAG_BIT(FL_PROCS), CAT_PORTS));
    CHECK(flags_cover(FLAG_BIT(FL_RUNNING_PORTS), CAT_RUNNING_PORTS) &&
          !flags_cover(FLAG_BIT(FL_RUNNING), CAT_RUNNING_PORTS));
    CHECK(flags_cover(FLAG_BIT(FL_EXITING), CAT_RUNNING_PROCS));
    CHECK(flags_cover_tag(FLAG_BIT(FL_RUNNING_PROCS), CAT_RUNNING_PROCS, "out"));
    CHECK(!flags_cover_tag(FLAG_BIT(FL_EXITING), CAT_RUNNING_PROCS, "in"));
    CHECK(flags_cover_tag(FLAG_BIT(FL_EXITING), CAT_RUNNING_PROCS, "out_exited"));
    CHECK(!flags_cover_tag(FLAG_BIT(FL_RUNNING), CAT_RUNNING_PROCS, "in_exiting"));
    CHECK(flags_cover_tag(FLAG_BIT(FL_SEND), CAT_SEND, "send"));
    CHECK(!flags_cover(all & ~FLAG_BIT(FL_SEND), CAT_SEND));
    CHECK(!flags_cover(all & ~FLAG_BIT(FL_CALL), CAT_CALL));
    /* FLAGS-ALL: every flag but cpu_timestamp and `all` itself */
    CHECK(flags_expand(FL_ALL) == FLAGS_ALL);
    CHECK(flags_expand(FL_SEND) == FLAG_BIT(FL_SEND));
    CHECK(!(FLAGS_ALL & FLAG_BIT(FL_CPU_TIMESTAMP)) && !(FLAGS_ALL & FLAG_BIT(FL_ALL)));
    CHECK((FLAGS_ALL & FLAG_BIT(FL_PORTS)) && (FLAGS_ALL & FLAG_BIT(FL_SILENT)));
    /* PROCS-SPEC-COUNT: which flags apply to processes, to ports, to both */
    CHECK(flags_for_processes(FLAG_BIT(FL_PORTS) | FLAG_BIT(FL_RUNNING_PORTS)) == 0);
    CHECK(flags_for_processes(FLAG_BIT(FL_CPU_TIMESTAMP)) == 0);
    CHECK(flags_for_processes(FLAG_BIT(FL_PROCS) | FLAG_BIT(FL_PORTS)) == FLAG_BIT(FL_PROCS));
    CHECK(flags_for_ports(FLAG_BIT(FL_PROCS) | FLAG_BIT(FL_CALL) | FLAG_BIT(FL_CPU_TIMESTAMP)) == 0);
    CHECK(flags_for_ports(S | FLAG_BIT(FL_SEND)) == (S | FLAG_BIT(FL_SEND)));
    CHECK(flags_for_ports(FLAG_BIT(FL_RUNNING_PORTS)) == FLAG_BIT(FL_RUNNING_PORTS));
    /* TS-CPU: cpu_timestamp turns timestamp into cpu_timestamp, not the monotonic kinds */
    const FlagSet C = FLAG_BIT(FL_CPU_TIMESTAMP);
    CHECK_STR(flags_timestamp_kind(T | C), "cpu_timestamp");
    CHECK_STR(flags_timestamp_kind(T | M | C), "cpu_timestamp");
    CHECK_STR(flags_timestamp_kind(M | C), "monotonic");
    CHECK(flags_timestamp_kind(C) == NULL);
    CHECK(flag_lookup("all", &f) == 1 && f == FL_ALL);
}

int main(void)
{
    int n = 0, *failures = &n;
    test_buf(failures);
    test_arena(failures);
    test_arena_grow(failures);
    test_strmap_key(failures);
    test_stream(failures);
    test_flags(failures);
    if (n)
        fprintf(stderr, "%d failure(s)\n", n);
    return n != 0;
}
