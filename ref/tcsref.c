/* tcsref.c - the command line: sim, plan, meta, tags, golden. Exit 0 ok, 1 check failed, 2 bad input. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dispatch.h"
#include "plan.h"
#include "release.h"
#include "run.h"
#include "scenario.h"

static const char usage[] =
    "usage: tcsref sim FILE [--explain] [--release N] [--crash-at S]\n"
    "                                              print the golden stream of one case; with --release,\n"
    "                                              OTP N's where a clarification records its deviation;\n"
    "                                              with --crash-at, of a node that dies during step S\n"
    "                                              (the lines of the steps before it)\n"
    "       tcsref plan FILE                       print the plan for the live runner\n"
    "       tcsref meta FILE                       print the case header as one JSON object\n"
    "       tcsref tags                            print the tag table (categories, callbacks) as JSON\n"
    "       tcsref deviations                      print the deviations --release predicts, one a line:\n"
    "                                              C-n KIND FIRST LAST WHAT, tab-separated (KIND: stream,\n"
    "                                              crash or may-crash; an open bound of the releases: -)\n"
    "       tcsref batch                           run many of sim/plan/meta in one process: each stdin\n"
    "                                              line is one command (\"sim FILE [--explain] [--release N] [--crash-at S]\",\n"
    "                                              \"plan FILE\",\n"
    "                                              \"meta FILE\"); each answer is \"tcsref-batch STATUS BYTES\"\n"
    "                                              and BYTES bytes: the output, or the error on status 2\n"
    "       tcsref golden CASES_DIR GOLDEN_DIR [--check]\n"
    "                                              (re)generate or check GOLDEN_DIR/<id>.stream of\n"
    "                                              every case in the tree CASES_DIR (ids unique)\n"
    "       tcsref --help\n"
    "exit status: 0 ok, 1 check failed, 2 bad input or usage\n";

/* Formats an error as FILE:LINE:COL: message. */
static void print_err(FILE *f, const char *file, const Err *e)
{
    if (e->line == 0)
        fprintf(f, "%s: %s\n", file, e->msg);
    else
        fprintf(f, "%s:%d:%d: %s\n", file, e->line, e->col, e->msg);
}

/* Formats an error as FILE:LINE:COL: message into a buffer. */
static void put_err(Buf *b, const char *file, const Err *e)
{
    char line[64] = "";
    if (e->line != 0)
        snprintf(line, sizeof line, ":%d:%d", e->line, e->col);
    buf_puts(b, file);
    buf_puts(b, line);
    buf_puts(b, ": ");
    buf_puts(b, e->msg);
    buf_puts(b, "\n");
}

/* Reads a number from 1 to 9999 into *n; false for anything else. */
static bool option_number(const char *word, int *n)
{
    char *end;
    long r = strtol(word, &end, 10);
    if (*end || end == word || r < 1 || r > 9999)
        return false;
    *n = (int)r;
    return true;
}

/* Reads sim's options from words[0..n); false for anything else (a usage error). */
static bool sim_options(char **words, int n, RunOptions *o)
{
    *o = (RunOptions){0};
    for (int i = 0; i < n; i++) {
        if (strcmp(words[i], "--explain") == 0 && !o->explain) {
            o->explain = true;
        } else if (strcmp(words[i], "--release") == 0 && o->release == 0 && i + 1 < n) {
            if (!option_number(words[++i], &o->release))
                return false;
        } else if (strcmp(words[i], "--crash-at") == 0 && o->crash_at == 0 && i + 1 < n) {
            if (!option_number(words[++i], &o->crash_at))
                return false;
        } else {
            return false;
        }
    }
    return true;
}

/* Simulates one case, a step at a time; on success *out is its stream (o.bounded: a long one
 * costs no memory) and *id the case id, else *out is empty. */
static bool run_case(Arena *a, const char *path, RunOptions o, Stream *out, const char **id, Err *err)
{
    Scenario sc;
    bool ok = run_file(a, path, o, &sc, out, err);
    if (ok)
        *id = sc.id;
    return ok;
}

/* One of sim, plan, meta on one case: its output in out (to stream_free), or false with the
 * error in err. */
static bool single(const char *cmd, const char *path, RunOptions o, Stream *out, Err *err)
{
    Arena a;
    arena_init(&a);
    bool ok;
    if (strcmp(cmd, "sim") == 0) {
        const char *id;
        o.bounded = true;
        ok = run_case(&a, path, o, out, &id, err);
    } else {
        Scenario sc;
        *out = (Stream){0};
        ok = scenario_load(&a, path, &sc, err);
        if (ok && strcmp(cmd, "plan") == 0) {
            /* the plan is only given for cases the model can run */
            bool may_crash;
            ok = run_scenario_may_crash(&a, &sc, &may_crash, err);
            if (ok)
                plan_print(&out->text, &sc);
            if (ok && may_crash) /* where a release's node crashes (C-92, C-150), what came before */
                plan_print_step_lines(&out->text);
        } else if (ok) {
            meta_print(&out->text, &sc);
        }
    }
    arena_free(&a);
    return ok;
}

static int cmd_single(const char *cmd, const char *path, RunOptions o)
{
    Stream out;
    Err err = {0};
    bool ok = single(cmd, path, o, &out, &err);
    if (ok)
        stream_write(&out, stdout);
    else
        print_err(stderr, path, &err);
    stream_free(&out);
    return ok ? 0 : 2;
}

/* Empties a buffer and keeps its content a writable, NUL-terminated string. */
static void buf_empty(Buf *b)
{
    b->len = 0;
    buf_puts(b, "");
}

/* Reads one line of stdin into line (without its newline); false at the end. */
static bool read_line(Buf *line)
{
    int c;
    buf_empty(line);
    while ((c = getchar()) != EOF && c != '\n') {
        char ch = (char)c;
        buf_putn(line, &ch, 1);
    }
    return c != EOF || line->len > 0;
}

/* The commands of stdin, one a line, each answered with a framed output (the usage says how).
 * Every case is simulated in an arena of its own, so an answer never depends on the cases before it. */
static int cmd_batch(void)
{
    Buf line;
    buf_init(&line);
    while (read_line(&line)) {
        char *text = line.data;
        char *words[8];
        int n = 0;
        for (char *w = strtok(text, " "); w && n < 8; w = strtok(NULL, " "))
            words[n++] = w;
        const char *cmd = n > 0 ? words[0] : NULL, *path = n > 1 ? words[1] : NULL;
        RunOptions o = {0};
        bool known = path && n < 8 &&
                     ((strcmp(cmd, "sim") == 0 && sim_options(words + 2, n - 2, &o)) ||
                      (n == 2 && (strcmp(cmd, "plan") == 0 || strcmp(cmd, "meta") == 0)));
        Err err = {0};
        Stream out = {0};
        int status = 2;
        if (!known) {
            snprintf(err.msg, sizeof err.msg,
                     "not a batch command (sim FILE [--explain] [--release N] [--crash-at S], plan FILE, meta FILE)");
            put_err(&out.text, "tcsref batch", &err);
        } else if (single(cmd, path, o, &out, &err)) {
            status = 0;
        } else {
            put_err(&out.text, path, &err);
        }
        printf("tcsref-batch %d %zu\n", status, stream_size(&out));
        stream_write(&out, stdout);
        stream_free(&out);
        fflush(stdout);
    }
    buf_free(&line);
    return 0;
}

/* Prints the tag table the driver, the runner and the recorder are derived from. */
static int cmd_tags(void)
{
    Buf out;
    buf_init(&out);
    tag_table_print(&out);
    fwrite(buf_str(&out), 1, out.len, stdout);
    buf_free(&out);
    return 0;
}

/* ---- golden ------------------------------------------------------------------------------ */

typedef struct { char **v; size_t n, cap; } Names;

static void names_add(Names *ns, const char *s)
{
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? ns->cap * 2 : 64;
        char **nv = realloc(ns->v, ns->cap * sizeof(char *));
        if (!nv)
            abort();
        ns->v = nv;
    }
    size_t len = strlen(s);
    ns->v[ns->n] = malloc(len + 1);
    if (!ns->v[ns->n])
        abort();
    memcpy(ns->v[ns->n++], s, len + 1);
}

static void names_free(Names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), sl = strlen(suffix);
    return n > sl && name[0] != '.' && strcmp(name + n - sl, suffix) == 0;
}

/* The sorted names in dir ending in suffix; false if dir cannot be opened. */
static bool list_dir(const char *dir, const char *suffix, Names *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (has_suffix(e->d_name, suffix))
            names_add(out, e->d_name);
    closedir(d);
    if (out->n)
        qsort(out->v, out->n, sizeof(char *), cmp_str);
    return true;
}

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p)
        abort();
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* By file name first, so that a tree of cases keeps the order of one flat directory. */
static int cmp_base_name(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    int by_name = strcmp(base_name(x), base_name(y));
    return by_name ? by_name : strcmp(x, y);
}

/* Adds the files under root/rel ending in suffix, as paths relative to root, descending into
 * every directory but a symbolic link to one (cases/ is a tree by area); hidden entries are
 * skipped. False, saying which, if a directory cannot be opened. */
static bool walk_tree(const char *root, const char *rel, const char *suffix, Names *out)
{
    char *here = rel ? path_join(root, rel) : strdup(root);
    if (!here)
        abort();
    DIR *d = opendir(here);
    if (!d)
        fprintf(stderr, "tcsref: cannot open directory %s\n", here);
    free(here);
    if (!d)
        return false;
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *name = rel ? path_join(rel, e->d_name) : strdup(e->d_name);
        if (!name)
            abort();
        char *full = path_join(root, name);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode))
            ok = walk_tree(root, name, suffix, out) && ok;
        else if (has_suffix(e->d_name, suffix))
            names_add(out, name);
        free(full);
        free(name);
    }
    closedir(d);
    return ok;
}

/* The case files under dir, relative to it, ordered by file name; false, saying why, if a
 * directory cannot be opened or two files share a name: golden/ is flat and keyed by case id,
 * which is the file name, so ids must be unique across the whole tree. */
static bool list_cases(const char *dir, Names *out)
{
    if (!walk_tree(dir, NULL, ".tcs", out))
        return false;
    if (out->n)
        qsort(out->v, out->n, sizeof(char *), cmp_base_name);
    bool unique = true;
    for (size_t i = 1; i < out->n; i++)
        if (strcmp(base_name(out->v[i - 1]), base_name(out->v[i])) == 0) {
            fprintf(stderr, "tcsref: %s/%s and %s/%s: two cases with one id (a case id is unique across "
                    "the tree)\n", dir, out->v[i - 1], dir, out->v[i]);
            unique = false;
        }
    return unique;
}

/* 1 if file exists with exactly content, 0 if it differs, -1 if missing. */
static int same_content(const char *path, const Buf *content)
{
    Buf b;
    buf_init(&b);
    if (!buf_read_file(&b, path))
        return -1;
    int same = b.len == content->len && memcmp(buf_str(&b), buf_str(content), b.len) == 0;
    buf_free(&b);
    return same;
}

static bool write_atomic(const char *path, const Buf *content)
{
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n);
    if (!tmp)
        abort();
    snprintf(tmp, n, "%s.tmp~", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf_str(content), 1, content->len, f) == content->len;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        fprintf(stderr, "tcsref: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}

static int cmd_golden(const char *cases_dir, const char *golden_dir, bool check)
{
    Names cases = {0}, goldens = {0};
    if (!list_cases(cases_dir, &cases)) {
        names_free(&cases);
        return 2;
    }
    size_t nc = cases.n;
    Buf *streams = calloc(nc ? nc : 1, sizeof(Buf));
    char **ids = calloc(nc ? nc : 1, sizeof(char *));
    if (!streams || !ids)
        abort();
    /* 1. parse and simulate everything; any error: report all and write nothing */
    int errors = 0;
    for (size_t i = 0; i < nc; i++) {
        Arena a;
        arena_init(&a);
        buf_init(&streams[i]);
        char *path = path_join(cases_dir, cases.v[i]);
        Err err = {0};
        const char *id = NULL;
        Stream s;
        if (run_case(&a, path, (RunOptions){0}, &s, &id, &err)) {
            buf_putn(&streams[i], buf_str(&s.text), s.text.len);
            stream_free(&s);
            ids[i] = malloc(strlen(id) + 1);
            if (!ids[i])
                abort();
            strcpy(ids[i], id);
        } else {
            print_err(stderr, path, &err);
            errors++;
        }
        free(path);
        arena_free(&a);
    }
    int rc = 0;
    if (errors) {
        fprintf(stderr, "tcsref: %d case(s) with errors; nothing written\n", errors);
        rc = 2;
        goto done;
    }
    if (!check)
        mkdir(golden_dir, 0777); /* may already exist */
    /* 2. write or check each stream */
    int bad = 0;
    for (size_t i = 0; i < nc; i++) {
        char name[512];
        snprintf(name, sizeof name, "%s.stream", ids[i]);
        char *path = path_join(golden_dir, name);
        int same = same_content(path, &streams[i]);
        if (same != 1) {
            if (check) {
                printf("%s: %s\n", same < 0 ? "missing" : "stale", path);
                bad++;
            } else if (write_atomic(path, &streams[i])) {
                printf("%s %s\n", same < 0 ? "created" : "updated", path);
            } else {
                rc = 2;
            }
        }
        free(path);
    }
    /* 3. orphans: golden files without a case */
    list_dir(golden_dir, ".stream", &goldens);
    for (size_t g = 0; g < goldens.n; g++) {
        bool has_case = false;
        for (size_t i = 0; i < nc && !has_case; i++) {
            size_t n = strlen(ids[i]);
            has_case = strncmp(goldens.v[g], ids[i], n) == 0 && strcmp(goldens.v[g] + n, ".stream") == 0;
        }
        if (has_case)
            continue;
        char *path = path_join(golden_dir, goldens.v[g]);
        if (check) {
            printf("orphan: %s\n", path);
            bad++;
        } else if (remove(path) == 0) {
            printf("removed orphan %s (no case)\n", path);
        } else {
            fprintf(stderr, "tcsref: cannot remove %s\n", path);
            rc = 2;
        }
        free(path);
    }
    if (check && bad)
        rc = 1;
done:
    for (size_t i = 0; i < nc; i++) {
        buf_free(&streams[i]);
        free(ids[i]);
    }
    free(streams);
    free(ids);
    names_free(&cases);
    names_free(&goldens);
    return rc;
}

/* The deviations a release prediction knows (ref/state/release.c): what the driver judges by
 * prediction rather than by the shapes of expectations/otpN.toml, and how (their kinds). */
static int cmd_deviations(void)
{
    Buf out;
    buf_init(&out);
    release_deviations_print(&out);
    fwrite(buf_str(&out), 1, out.len, stdout);
    buf_free(&out);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    RunOptions o = {0};
    if (argc >= 3 && strcmp(argv[1], "sim") == 0 && sim_options(argv + 3, argc - 3, &o))
        return cmd_single("sim", argv[2], o);
    if (argc == 3 && (strcmp(argv[1], "plan") == 0 || strcmp(argv[1], "meta") == 0))
        return cmd_single(argv[1], argv[2], o);
    if (argc == 2 && strcmp(argv[1], "tags") == 0)
        return cmd_tags();
    if (argc == 2 && strcmp(argv[1], "deviations") == 0)
        return cmd_deviations();
    if (argc == 2 && strcmp(argv[1], "batch") == 0)
        return cmd_batch();
    if (argc >= 4 && strcmp(argv[1], "golden") == 0 &&
        (argc == 4 || (argc == 5 && strcmp(argv[4], "--check") == 0)))
        return cmd_golden(argv[2], argv[3], argc == 5);
    fputs(usage, stderr);
    return 2;
}
