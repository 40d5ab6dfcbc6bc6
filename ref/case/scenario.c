/* scenario.c - line-oriented parser of .tcs files; every error carries LINE:COL. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "scenario.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "fixture.h"
#include "libcalls.h"
#include "phash2.h"
#include "matchspec.h"
#include "strmap.h"

enum { MAX_LIST = 256 };

/* What the steps so far did to a declared session (checked while parsing). */
typedef enum { SES_UNBORN, SES_CREATED, SES_DROPPED } SessionPhase;

/* Parser state: the current line and what has been declared so far. */
typedef struct {
    Arena *a;        /* what the step being parsed holds (the case's arena while the header is read) */
    Arena *keep;     /* the case's arena: the header and the tables below, which outlive any step */
    Scenario *sc;
    Err *err;
    const char *s;   /* current line, comment stripped */
    size_t i;        /* cursor in s */
    int line;
    int stage;       /* which statement may come next, see parse_statement */
    /* the tables below are in the arena, grown by doubling (arena_grow): no fixed cap */
    const char **known; /* declared and spawned-so-far processes, and ports */
    size_t nknown, known_cap;
    StrMap known_index; /* the names in known */
    StrMap ports;       /* the names in known that are ports (open_port) */
    AnswerDecl answers[MAX_LIST];
    const char *list[MAX_LIST];
    Step *st;        /* the step being parsed */
    bool has_default;
    TracerDecl *cur; /* the tracer whose callbacks/answer lines come next */
    SessionDecl *sessions;
    SessionPhase *phase; /* indexed like sessions */
    size_t nsessions, sessions_cap;
    long long repeat; /* how often the step being parsed is done: its `times N`, else 1 */
    bool meta_option; /* parsing a legacy pattern step's options: <meta> names the harness's second
                       * tracer process, a meta tracer ({meta, <meta>}, CALL-META-PROCESS) */
    StrMap readings;  /* the names of the counter readings taken so far (`... as NAME`) */
    StrMap *words;    /* the words read so far, each kept once: a long scenario repeats a few */
    bool tracer_exited; /* a `tracer exit` step was read (STATUS-DEAD-PROCESS): steps are not kept */
    bool stepped;       /* a step was read: `tracer port` must come before any */
    bool tracer_port;   /* a `tracer port` step was read: the legacy tracer is a port (PORT-TRACER) */
    bool seq_tracer;    /* a `seq_trace tracer` step was read */
    bool seq_stamps;    /* a `seq_token` step gave a token a time stamp */
    bool peer_seq_tracer; /* a `seq_trace tracer peer T` step was read */
    int block_line, block_col; /* the open `together` block's line and column (0: none open) */
    const char *block_first; /* the first process with a step in it, NULL: none yet */
    bool block_two;     /* ... and some other process has one too */
} Parser;

enum { S_CASE, S_RULES, S_DESC, S_OTP, S_FEATURES, S_TRACER_OPTS, S_STEPS };

static const char *const spec_names[] = {
    NULL, "all", "processes", "existing", "existing_processes", "new", "new_processes", "new_ports",
};

/* The process spec an atom names, or SPEC_PID if it names none. */
static ProcSpec spec_lookup(const char *w)
{
    for (int i = SPEC_ALL; i <= SPEC_NEW_PORTS; i++)
        if (strcmp(spec_names[i], w) == 0)
            return (ProcSpec)i;
    return SPEC_PID;
}

bool spec_is_ports(ProcSpec spec)
{
    return spec == SPEC_NEW_PORTS || spec == SPEC_PORTS || spec == SPEC_EXISTING_PORTS;
}

const char *answer_name(Answer a)
{
    return a == ANS_TRACE ? "trace" : a == ANS_DISCARD ? "discard" : "remove";
}

static bool fail(Parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(Parser *p, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_set(p->err, p->line, (int)at + 1, fmt, ap);
    va_end(ap);
    return false;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static void skip_ws(Parser *p) { while (is_blank(p->s[p->i])) p->i++; }
static bool at_end(Parser *p) { skip_ws(p); return p->s[p->i] == '\0'; }

/* The next blank-separated word (NULL at end of line); *at is its offset. */
/* The text of s[at..at+n) as a string of the arena, the one made before for the same short text. */
static const char *interned(Parser *p, size_t at, size_t n)
{
    char key[64];
    if (n >= sizeof key)
        return arena_strndup(p->a, p->s + at, n);
    memcpy(key, p->s + at, n);
    key[n] = '\0';
    const char *w = strmap_key(p->words, key);
    if (!w) {
        w = arena_strndup(p->keep, key, n);
        strmap_add(p->words, p->keep, w, 0);
    }
    return w;
}

static const char *word(Parser *p, size_t *at)
{
    skip_ws(p);
    *at = p->i;
    while (p->s[p->i] && !is_blank(p->s[p->i]))
        p->i++;
    return *at == p->i ? NULL : interned(p, *at, p->i - *at);
}

/* A word made only of [a-zA-Z0-9_] (stops before ':', '(' etc.). */
static const char *ident(Parser *p, size_t *at)
{
    skip_ws(p);
    *at = p->i;
    while (p->s[p->i] == '_' || (p->s[p->i] >= 'a' && p->s[p->i] <= 'z') ||
           (p->s[p->i] >= 'A' && p->s[p->i] <= 'Z') || (p->s[p->i] >= '0' && p->s[p->i] <= '9'))
        p->i++;
    return *at == p->i ? NULL : interned(p, *at, p->i - *at);
}

/* A process, port or session name is an atom on the live node: OTP's limit applies. */
static bool name_fits(Parser *p, const char *w, size_t at)
{
    if (strlen(w) > MAX_ATOM_CHARS)
        return fail(p, at, "name longer than %d characters (OTP's limit on atoms)", MAX_ATOM_CHARS);
    return true;
}

/* Whether w is the first word of a keyword phrase ("tracer" of "tracer exit"). */
static bool begins(const char *phrase, const char *w)
{
    size_t n = strcspn(phrase, " ");
    return strlen(w) == n && strncmp(phrase, w, n) == 0;
}

/* Whether w begins a step that is no process's (the harness's steps, the session steps): a
 * process or port of that name could do no step, so no declaration or spawn may give it. */
static bool step_word(const char *w)
{
    for (int k = 0; k < STEP_KINDS; k++)
        if (!step_by_process((StepKind)k) && step_keyword((StepKind)k) && begins(step_keyword((StepKind)k), w))
            return true;
    for (int o = 0; o < SESSION_OPS; o++)
        if (session_op_keyword((SessionOp)o) && strcmp(session_op_keyword((SessionOp)o), w) == 0)
            return true;
    return false;
}

/* The statements of a case's header and declarations (cases/README.md "Grammar"), each on a
 * line of its own. */
static bool statement_word(const char *w)
{
    static const char *const words[] = {"case", "rules", "desc", "otp", "features", "tries", "tracer",
                                        "callbacks", "answer", "process", "session"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i]) == 0)
            return true;
    return false;
}

static bool is_name(const char *w)
{
    if (!(w[0] >= 'a' && w[0] <= 'z'))
        return false;
    for (const char *c = w + 1; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return false;
    return true;
}

static bool is_rule_id(const char *w)
{
    if (!(w[0] >= 'A' && w[0] <= 'Z'))
        return false;
    for (const char *c = w; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
            return false;
    return true;
}

static bool known(const void *ctx, const char *name)
{
    const Parser *p = ctx;
    if (strcmp(name, "tracer") == 0)
        return true;
    return strmap_get(&p->known_index, name) >= 0;
}

/* name is known from now on (a declared, spawned or opened process or port). */
static void add_known(Parser *p, const char *name)
{
    name = arena_strndup(p->keep, name, strlen(name));
    p->known = arena_grow(p->keep, p->known, p->nknown, &p->known_cap, sizeof *p->known);
    strmap_add(&p->known_index, p->keep, name, (int)p->nknown);
    p->known[p->nknown++] = name;
}

static bool is_port_name(const Parser *p, const char *name)
{
    return strmap_get(&p->ports, name) >= 0;
}

/* The index of the declared session called name, or -1. */
static int session_index(const Parser *p, const char *name)
{
    for (size_t i = 0; i < p->nsessions; i++)
        if (strcmp(p->sessions[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* A name that a symbolic pid <name> may use: a process, not a port, or the tracer state
 * process of the legacy tracer or of a session. */
static bool known_process(const void *ctx, const char *name)
{
    const Parser *p = ctx;
    return (known(ctx, name) && !is_port_name(ctx, name)) || session_index(ctx, name) >= 0 ||
           (p->meta_option && strcmp(name, "meta") == 0);
}

/* A term where funs and make_ref() may appear: a tracer state, a tracer option. */
static bool opaque_term_arg(Parser *p, Term **out, int *col)
{
    skip_ws(p);
    if (col)
        *col = (int)p->i + 1;
    return term_parse(p->a, p->s, &p->i, p->line, known_process, p, out, p->err);
}

/* A term read at `at` that must hold no opaque value: funs and refs are values the model
 * cannot run a step with (a message, a match spec, a call's arguments), so only opaque places
 * take them. */
static bool no_opaque(Parser *p, size_t at, const Term *t)
{
    const Term *opaque = term_find_opaque(t);
    if (opaque && (term_is_external(opaque) || term_is_atomics(opaque)))
        return fail(p, at, "external_pid(), external_port() and atomics:new(1,[]) may appear only in an "
                           "apply step, a session's term(...) or a tracer state (model v1)");
    if (opaque)
        return fail(p, at, "a fun or make_ref() may appear only in a tracer state, a tracer option or as a "
                           "spawn's entry point fun() -> T end (model v1)");
    return true;
}

/* Any other term: one holding no opaque value. */
static bool term_arg(Parser *p, Term **out, int *col)
{
    skip_ws(p);
    size_t at = p->i;
    return opaque_term_arg(p, out, col) && no_opaque(p, at, *out);
}

/* The end of the line; text after a statement is an error, with a hint when it begins with a
 * keyword: a statement written on the line of another (`tracer recorder callbacks ...`). */
static bool end_of_statement(Parser *p)
{
    if (at_end(p))
        return true;
    size_t at, save = p->i;
    const char *w = word(p, &at);
    p->i = save;
    if (statement_word(w) || step_word(w))
        return fail(p, at, "unexpected text after the statement ('%s' is a statement of its own line)", w);
    return fail(p, p->i, "unexpected text after the statement");
}

static bool int_arg(Parser *p, const char *what, long long *out)
{
    size_t at;
    skip_ws(p);
    at = p->i;
    Term *t;
    if (!term_arg(p, &t, NULL))
        return false;
    if (t->kind != TK_INT)
        return fail(p, at, "%s must be an integer", what);
    *out = t->u.i;
    return true;
}

/* A process name that must already exist (declared or spawned by an earlier step). */
static bool proc_arg(Parser *p, const char **out, int *col)
{
    size_t at;
    const char *w = word(p, &at);
    if (!w)
        return fail(p, at, "expected a process name, found end of line");
    if (!is_name(w))
        return fail(p, at, "'%s' is not a process name", w);
    if (strcmp(w, "tracer") == 0 || !known(p, w))
        return fail(p, at, "undeclared process '%s'", w);
    if (is_port_name(p, w))
        return fail(p, at, "'%s' is a port, not a process", w);
    *out = w;
    *col = (int)at + 1;
    return true;
}

/* A port name opened by an earlier step, or (procs_ok) a process name. */
static bool entity_arg(Parser *p, bool procs_ok, const char **out, int *col)
{
    size_t at;
    skip_ws(p);
    at = p->i;
    const char *w = word(p, &at);
    if (w && is_port_name(p, w)) {
        *out = w;
        *col = (int)at + 1;
        return true;
    }
    if (!procs_ok) {
        if (!w)
            return fail(p, at, "expected a port name, found end of line");
        return fail(p, at, known(p, w) ? "'%s' is a process, not a port" : "unknown port '%s'", w);
    }
    p->i = at;
    return proc_arg(p, out, col);
}

/* The new name of a process (spawn) or a port (open_port); verb names the step. */
static bool new_name_arg(Parser *p, const char *what, const char *verb, const char **out, int *col)
{
    size_t at;
    const char *w = word(p, &at);
    if (!w || !is_name(w))
        return fail(p, at, "expected the name of the new %s", what);
    if (!name_fits(p, w, at))
        return false;
    if (strcmp(w, "tracer") == 0 || strcmp(w, "meta") == 0 || known(p, w) || session_index(p, w) >= 0)
        return fail(p, at, "%s '%s' already exists (%s needs a new name)",
                    is_port_name(p, w) ? "port" : "process", w, verb);
    if (p->tracer_port && strcmp(w, "tracer_port") == 0)
        return fail(p, at, "'tracer_port' names the tracer port (%s needs a new name)", verb);
    if (spec_lookup(w) != SPEC_PID)
        return fail(p, at, "'%s' is reserved for the process spec of erlang:trace/3", w);
    if (step_word(w))
        return fail(p, at, "'%s' is reserved for the harness's step", w);
    add_known(p, w);
    *out = w;
    *col = (int)at + 1;
    return true;
}

static bool atom_arg(Parser *p, const char *what, const char **out, size_t *at)
{
    skip_ws(p);
    *at = p->i;
    Term *t;
    if (!term_arg(p, &t, NULL))
        return false;
    if (t->kind != TK_ATOM)
        return fail(p, *at, "%s must be an atom", what);
    *out = t->u.name;
    return true;
}

/* --- header ------------------------------------------------------------------------- */

static bool parse_words(Parser *p, const char *kw, bool (*valid)(const char *), const char *what,
                        const char ***out, size_t *n)
{
    size_t at, cnt = 0;
    const char *w;
    while ((w = word(p, &at)) != NULL) {
        if (!valid(w))
            return fail(p, at, "'%s' is not a valid %s", w, what);
        if (cnt == MAX_LIST)
            return fail(p, at, "too many %ss", what);
        p->list[cnt++] = w;
    }
    if (cnt == 0)
        return fail(p, p->i, "'%s' needs at least one %s", kw, what);
    *out = arena_alloc(p->a, cnt * sizeof(char *));
    memcpy(*out, p->list, cnt * sizeof(char *));
    *n = cnt;
    return true;
}

static bool is_feature(const char *w) { return is_name(w); }

static bool parse_desc(Parser *p)
{
    skip_ws(p);
    size_t at = p->i;
    if (p->s[p->i] != '"')
        return fail(p, at, "desc needs a double-quoted string");
    Buf b;
    buf_init(&b);
    p->i++;
    for (;;) {
        char c = p->s[p->i];
        if (!c) {
            buf_free(&b);
            return fail(p, at, "unterminated string");
        }
        p->i++;
        if (c == '"')
            break;
        if (c == '\\') {
            c = p->s[p->i];
            if (c != '"' && c != '\\') {
                buf_free(&b);
                return fail(p, p->i - 1, "only \\\" and \\\\ escapes are allowed in desc");
            }
            p->i++;
        }
        buf_putn(&b, &c, 1);
    }
    p->sc->desc = arena_strndup(p->a, buf_str(&b), b.len);
    buf_free(&b);
    return end_of_statement(p);
}

const char *tracer_kind_name(TracerKind k)
{
    return k == TRACER_RECORDER ? "recorder" : k == TRACER_ERL_MSG ? "erl_msg_tracer"
           : k == TRACER_PROCESS ? "process" : "undefined";
}

static bool parse_tracer_opt(Parser *p, const char *kw, size_t kw_at)
{
    TracerDecl *t = p->cur;
    if (strcmp(kw, "callbacks") == 0) {
        if (t->kind != TRACER_RECORDER)
            return fail(p, kw_at, "'callbacks' is not allowed with tracer %s", tracer_kind_name(t->kind));
        size_t at;
        const char *w;
        int n = 0;
        while ((w = word(p, &at)) != NULL) {
            int idx = callback_index(w);
            if (idx < 0)
                return fail(p, at, "unknown callback name '%s'", w);
            if (t->callbacks & (1u << idx))
                return fail(p, at, "callback '%s' listed twice", w);
            t->callbacks |= 1u << idx;
            n++;
        }
        if (n == 0)
            return fail(p, p->i, "'callbacks' needs at least one callback name");
        return true;
    }
    /* answer TAG ANSWER */
    if (t->kind != TRACER_RECORDER)
        return fail(p, kw_at, "'answer' is not allowed with tracer %s", tracer_kind_name(t->kind));
    size_t at;
    const char *tag;
    if (!atom_arg(p, "the answer tag", &tag, &at))
        return false;
    bool is_default = strcmp(tag, "default") == 0;
    if (!is_default && !tag_is_known(tag))
        return fail(p, at, "unknown tag '%s' in answer", tag);
    size_t aat;
    const char *w = word(p, &aat);
    Answer ans;
    if (!w)
        return fail(p, aat, "expected trace, discard or remove");
    if (strcmp(w, "trace") == 0)
        ans = ANS_TRACE;
    else if (strcmp(w, "discard") == 0)
        ans = ANS_DISCARD;
    else if (strcmp(w, "remove") == 0)
        ans = ANS_REMOVE;
    else
        return fail(p, aat, "unknown answer '%s' (expected trace, discard or remove)", w);
    if (is_default) {
        if (p->has_default)
            return fail(p, at, "answer for default given twice");
        p->has_default = true;
        t->default_answer = ans;
    } else {
        for (size_t i = 0; i < t->nanswers; i++)
            if (strcmp(p->answers[i].tag, tag) == 0)
                return fail(p, at, "answer for tag '%s' given twice", tag);
        /* no "too many answers" check: each known tag (far fewer than MAX_LIST) once */
        p->answers[t->nanswers].tag = tag;
        p->answers[t->nanswers].answer = ans;
        t->nanswers++;
    }
    return end_of_statement(p);
}

/* The answers of the tracer declared last move from the parser's buffer into the arena. */
static void finish_tracer(Parser *p)
{
    TracerDecl *t = p->cur;
    t->answers = arena_alloc(p->a, (t->nanswers + 1) * sizeof(AnswerDecl));
    memcpy(t->answers, p->answers, t->nanswers * sizeof(AnswerDecl));
    p->has_default = false;
}

static bool parse_process_decl(Parser *p)
{
    size_t at;
    const char *w;
    while ((w = word(p, &at)) != NULL) {
        if (!is_name(w))
            return fail(p, at, "'%s' is not a process name", w);
        if (!name_fits(p, w, at))
            return false;
        if (strcmp(w, "tracer") == 0 || strcmp(w, "meta") == 0)
            return fail(p, at, "'%s' is reserved for a tracer state process", w);
        if (spec_lookup(w) != SPEC_PID)
            return fail(p, at, "'%s' is reserved for the process spec of erlang:trace/3", w);
        if (step_word(w))
            return fail(p, at, "'%s' is reserved for the harness's step", w);
        if (session_index(p, w) >= 0)
            return fail(p, at, "'%s' is the name of a session (and of its tracer state process)", w);
        if (known(p, w))
            return fail(p, at, "duplicate process '%s'", w);
        add_known(p, w);
    }
    if (p->nknown == 0)
        return fail(p, p->i, "'process' needs at least one name");
    p->sc->nprocs = p->nknown;
    p->sc->procs = arena_alloc(p->a, p->nknown * sizeof(char *));
    memcpy(p->sc->procs, p->known, p->nknown * sizeof(char *));
    return true;
}

/* --- steps -------------------------------------------------------------------------- */

/* A process or port name, or with specs allowed one of the atoms of ProcSpec (PROCS-SPEC-*,
 * PORTS-NEW); without, only a process or new / new_processes (the `info` step). */
static bool target_arg(Parser *p, Step *st, bool specs)
{
    size_t save = p->i, at;
    const char *w = word(p, &at);
    ProcSpec spec = w ? spec_lookup(w) : SPEC_PID;
    if (spec != SPEC_PID && (specs || spec == SPEC_NEW || spec == SPEC_NEW_PROCESSES)) {
        st->spec = spec;
        st->actor = w;
        st->actor_col = (int)at + 1;
        return true;
    }
    p->i = save;
    return specs ? entity_arg(p, true, &st->actor, &st->actor_col) : proc_arg(p, &st->actor, &st->actor_col);
}

/* Gives the step its lists of flags and options, at its first flag or option. */
static void step_lists(Parser *p, Step *st)
{
    if (st->flags)
        return;
    st->flags = arena_alloc(p->a, MAX_STEP_FLAGS * sizeof *st->flags);
    st->flag_terms = arena_alloc(p->a, MAX_STEP_FLAGS * sizeof *st->flag_terms);
    st->opts = arena_alloc(p->a, MAX_STEP_FLAGS * sizeof *st->opts);
    st->opt_terms = arena_alloc(p->a, MAX_STEP_FLAGS * sizeof *st->opt_terms);
}

/* One flag of a legacy trace step: a documented flag atom, or deliberately something else. */
static bool flag_arg(Parser *p, Step *st)
{
    skip_ws(p);
    size_t at = p->i;
    bool quoted = p->s[at] == '\'';
    Term *t;
    if (!opaque_term_arg(p, &t, NULL))
        return false;
    if (st->nflags == MAX_STEP_FLAGS)
        return fail(p, at, "too many flags");
    step_lists(p, st);
    Flag f = FL_COUNT;
    if (t->kind == TK_ATOM) {
        int r = flag_lookup(t->u.name, &f);
        if (r == 0)
            return fail(p, at, "the harness gives the tracer: '%s' is not allowed as a flag", t->u.name);
        /* an unquoted unknown atom is most likely a typo; a quoted one is meant (FLAGS-BADARG) */
        if (r < 0 && !quoted)
            return fail(p, at, "unknown trace flag '%s' (write it quoted to pass it to erlang:trace/3 anyway)",
                        t->u.name);
    } else if (t->kind == TK_TUPLE && t->u.tuple.n > 0 && term_is_atom(t->u.tuple.el[0], "tracer")) {
        /* the case names the tracer itself (TRACER-OPTION): the harness adds none */
        if (!st->on)
            return fail(p, at, "a {tracer, ...} flag in a 'trace ... off' step is not supported by model v1");
        st->tracer_opt = st->tracer_opt ? st->tracer_opt : t;
        st->flags[st->nflags] = FL_COUNT; /* no flag: a tracer, checked by the model */
        st->flag_terms[st->nflags++] = t;
        return true;
    } else if (!no_opaque(p, at, t)) {
        return false;
    }
    st->bad_flag |= f == FL_COUNT;
    st->flags[st->nflags] = f;
    st->flag_terms[st->nflags++] = t;
    return true;
}

/* One option of a session's trace step: a flag atom, or a tuple such as {tracer,<x>}, which
 * a session refuses; every option is kept as written in opts. */
static bool session_flag_arg(Parser *p, Step *st, Term **opts, size_t *nopts)
{
    size_t at = p->i;
    Term *t;
    if (!term_arg(p, &t, NULL))
        return false;
    if (*nopts == MAX_STEP_FLAGS)
        return fail(p, at, "too many flags");
    opts[(*nopts)++] = t;
    if (t->kind == TK_TUPLE)
        return true;
    if (t->kind != TK_ATOM)
        return fail(p, at, "a trace flag or an option tuple must be an atom or a tuple");
    Flag f;
    int r = flag_lookup(t->u.name, &f);
    if (r < 0)
        return fail(p, at, "unknown trace flag '%s'", t->u.name);
    if (r == 0)
        return fail(p, at, "trace flag '%s' is not supported by model v1", t->u.name);
    step_lists(p, st);
    st->flags[st->nflags++] = f;
    return true;
}

/* The spec a session's trace step may name instead of a process or port (cases/README.md
 * "Trace sessions"): new, new_processes, all or existing for trace:process/4 (SESSION-NEW,
 * SESSION-SPEC-ALL); new_ports, port(new), port(all) or port(existing) for trace:port/4
 * (SESSION-PORT-SPEC-ALL). st->actor keeps the atom passed, st->spec says which call; true
 * iff w was one. */
static bool session_spec(Step *st, const char *w, size_t at)
{
    static const struct { const char *written, *atom; ProcSpec spec; } specs[] = {
        {"new", "new", SPEC_NEW_PROCESSES}, {"new_processes", "new_processes", SPEC_NEW_PROCESSES},
        {"new_ports", "new_ports", SPEC_NEW_PORTS}, {"port(new)", "new", SPEC_NEW_PORTS},
        /* trace:process/4 names processes only (SESSION-SPEC-ALL) */
        {"all", "all", SPEC_PROCESSES}, {"existing", "existing", SPEC_EXISTING_PROCESSES},
        {"port(all)", "all", SPEC_PORTS}, {"port(existing)", "existing", SPEC_EXISTING_PORTS},
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (strcmp(w, specs[i].written) == 0) {
            st->spec = specs[i].spec;
            st->actor = specs[i].atom;
            st->actor_col = (int)at + 1;
            return true;
        }
    return false;
}

/* A trace step of a session created with tracer undefined (SESSION-UNDEFINED-TRACER): its one
 * tracer option is {tracer,<tracer>}, and a `trace ... on` step needs it, for without it the
 * calling process, the harness's handle holder, would become the tracer (OTP_SUITES.md F-3). */
static const char *dead_process_tracer(const Parser *p, const Step *st);

static bool undefined_session_options(Parser *p, const Step *st, Term *const *opts, size_t nopts)
{
    bool named = false;
    for (size_t i = 0; i < nopts; i++) {
        const Term *t = opts[i];
        if (t->kind != TK_TUPLE)
            continue;
        if (t->u.tuple.n != 2 || !term_is_atom(t->u.tuple.el[0], "tracer") || t->u.tuple.el[1]->kind != TK_PID ||
            strcmp(t->u.tuple.el[1]->u.name, "tracer") != 0)
            return fail(p, (size_t)st->col - 1, "an option other than {tracer,<tracer>} in a session with "
                        "tracer undefined is not supported by model v1");
        named = true;
    }
    if (st->on && !named)
        return fail(p, (size_t)st->col - 1, "a trace step without {tracer,<tracer>} in a session with tracer "
                    "undefined (the harness's handle holder would become the tracer) is not supported by model v1");
    const char *dead = st->on ? dead_process_tracer(p, st) : NULL;
    return dead ? fail(p, (size_t)st->col - 1, "%s not supported by model v1", dead) : true;
}

static bool next_word_is(Parser *p, const char *what);
static bool int_in_range(Parser *p, const char *what, long long lo, long long hi, long long *out);

/* A quoted atom where a session's trace step names its process: one that names no process of
 * the case and no spec, passed to trace:process/4, which raises (SESSION-NO-PROCESS). */
static bool no_process_arg(Parser *p, Step *st)
{
    size_t at = p->i;
    Term *t;
    if (!term_arg(p, &t, NULL))
        return false;
    if (t->kind != TK_ATOM)
        return fail(p, at, "expected a process, a port or a spec");
    if (known(p, t->u.name) || spec_lookup(t->u.name) != SPEC_PID || session_index(p, t->u.name) >= 0 ||
        strcmp(t->u.name, "tracer") == 0 || strcmp(t->u.name, "meta") == 0)
        return fail(p, at, "'%s' names a process, port, spec or session of the case: write it unquoted", t->u.name);
    st->spec = SPEC_NO_PROCESS;
    st->actor = t->u.name;
    st->actor_col = (int)at + 1;
    return true;
}

/* `how TERM` in a session's trace step: a How that is no boolean, which raises (SESSION-BAD-HOW,
 * OTP's error_info/1). */
static bool how_arg(Parser *p, Step *st)
{
    skip_ws(p);
    size_t at = p->i;
    if (!term_arg(p, &st->how, NULL))
        return false;
    if (term_is_atom(st->how, "true") || term_is_atom(st->how, "false"))
        return fail(p, at, "write 'on' or 'off' for a How of true or false");
    return true;
}

/* `flags TERM` in a session's trace step: the whole FlagList, one that is no proper list, which
 * raises (SESSION-FLAGS-NO-LIST, OTP's error_info/1); a proper list is written as its flags. */
static bool flag_list_term_arg(Parser *p, Step *st)
{
    skip_ws(p);
    size_t at = p->i;
    if (!term_arg(p, &st->sargs, NULL))
        return false;
    if (term_list_length(st->sargs) >= 0)
        return fail(p, at, "a flag list that is a proper list is written as its flags, without 'flags'");
    if (st->how)
        return fail(p, (size_t)st->col - 1, "a How that is no boolean with a flag list that is no proper list "
                    "(error_info explains both, C-90) is not supported by model v1");
    return end_of_statement(p);
}

enum { MAX_TRACE_ROUNDS = 50000, MAX_TRACE_ROUNDS_MS = 5000 };

/* `rounds N [within MS]` after the flags of a legacy `trace SPEC on call` step (PROCS-SPEC-ROUNDS):
 * the harness makes the call N times back to back, `erlang:trace(SPEC, false, [call])` between each
 * two, with `within MS` no new round once MS milliseconds of them have passed (a release where the
 * call is slow makes fewer: the lines are the same). For the specs OTP-19034 names (all,
 * processes, existing, existing_processes), the one flag call, a tracer process (no callbacks: a
 * round writes no probe line) and no trace session; the model checks that the call between the
 * rounds gives back the state before the step. rat: where `rounds` begins; the caller ends the
 * statement after N (and MS). */
static bool trace_rounds(Parser *p, Step *st, size_t rat)
{
    bool spec = st->spec == SPEC_ALL || st->spec == SPEC_PROCESSES || st->spec == SPEC_EXISTING ||
                st->spec == SPEC_EXISTING_PROCESSES;
    bool call = st->nflags == 1 && st->flags[0] == FL_CALL && term_is_atom(st->flag_terms[0], "call");
    if (!st->on || !spec || !call)
        return fail(p, rat, "'rounds' is for 'trace all|processes|existing|existing_processes on call' only");
    if (p->sc->tracer.kind != TRACER_PROCESS || p->tracer_port || p->sc->nsessions > 0)
        return fail(p, rat, "'rounds' of a trace step with a tracer module, a tracer port or a trace session (each "
                            "round would ask their callbacks or write to the port again) is not supported by model v1");
    if (!int_in_range(p, "the rounds", 2, MAX_TRACE_ROUNDS, &st->rounds))
        return false;
    st->rounds_ms = 0;
    return !next_word_is(p, "within") || int_in_range(p, "the milliseconds of the rounds", 1, MAX_TRACE_ROUNDS_MS,
                                                       &st->rounds_ms);
}

/* TARGET on|off FLAG... [rounds N [within MS]]: a legacy step names a process, a port or a spec, and passes its
 * flags as written (FLAGS-BADARG); a session's (with_options) names a process or a port and
 * keeps every option as written in st->sargs. */
static bool parse_trace_step(Parser *p, Step *st, bool with_options)
{
    if (with_options && (skip_ws(p), p->s[p->i] == '\'')) {
        if (!no_process_arg(p, st))
            return false;
    } else if (with_options) {
        size_t tat;
        skip_ws(p);
        tat = p->i;
        const char *target = word(p, &tat);
        if (!target || !session_spec(st, target, tat)) {
            p->i = tat;
            if (!entity_arg(p, true, &st->actor, &st->actor_col))
                return false;
        }
    } else if (!target_arg(p, st, true)) {
        return false;
    }
    size_t at;
    if (with_options && next_word_is(p, "how")) {
        if (!how_arg(p, st))
            return false;
    } else {
        const char *w = word(p, &at);
        if (!w || (strcmp(w, "on") != 0 && strcmp(w, "off") != 0))
            return fail(p, at, "expected 'on' or 'off'%s", with_options ? " (or 'how TERM')" : "");
        st->on = strcmp(w, "on") == 0;
    }
    if (with_options && next_word_is(p, "flags"))
        return flag_list_term_arg(p, st);
    Term *opts[MAX_STEP_FLAGS];
    size_t nopts = 0;
    st->rounds = 1;
    while (!at_end(p)) {
        skip_ws(p);
        size_t rat = p->i;
        if (!with_options && st->nflags > 0 && next_word_is(p, "rounds")) {
            if (!trace_rounds(p, st, rat))
                return false;
            break; /* the caller ends the statement */
        }
        if (!(with_options ? session_flag_arg(p, st, opts, &nopts) : flag_arg(p, st)))
            return false;
    }
    if ((with_options ? (int)nopts : st->nflags) == 0)
        return fail(p, p->i, "expected at least one trace flag");
    if (with_options && st->session >= 0 && p->sessions[st->session].tracer.kind == TRACER_UNDEFINED &&
        !undefined_session_options(p, st, opts, nopts))
        return false;
    st->sargs = term_list(p->a, nopts, opts);
    return true;
}

/* The items of a function in erlang:trace_info/2 and trace:info/3 (003, info/3). call_memory
 * is new in OTP 26, where `all` lists it too (CALL-COUNTERS-MEMORY-OTP26). */
static bool reading_name(Parser *p, Step *st);

static bool function_item_arg(Parser *p, Step *st, const char **item)
{
    static const char *const items[] = {"traced", "match_spec", "meta", "meta_match_spec",
                                        "call_count", "call_time", "call_memory", "all"};
    size_t at;
    const char *w = word(p, &at);
    for (size_t i = 0; w && i < sizeof items / sizeof items[0]; i++)
        if (strcmp(w, items[i]) == 0) {
            *item = w;
            return i < 6 || p->sc->otp >= 26 ? reading_name(p, st)
                 : fail(p, at, "'%s' of a function needs 'otp 26' or later (call_memory is new in OTP 26)", w);
        }
    return fail(p, at, "expected a function's item: traced, match_spec, meta, meta_match_spec, call_count, "
                       "call_time, call_memory or all");
}

/* [as NAME] after a function's call_time or call_memory item: the reading gets a name a later
 * `relation` step compares by (CALL-COUNTERS-RELATION); then the end of the statement. */
static bool reading_name(Parser *p, Step *st)
{
    skip_ws(p);
    size_t as_at = p->i, at;
    if (!next_word_is(p, "as"))
        return end_of_statement(p);
    const char *w = word(p, &at);
    if (strcmp(st->item, "call_time") != 0 && strcmp(st->item, "call_memory") != 0)
        return fail(p, as_at, "only a call_time or call_memory reading can be named");
    if (!w || !is_name(w))
        return fail(p, at, "expected the reading's name after 'as'");
    if (strmap_get(&p->readings, w) >= 0)
        return fail(p, at, "duplicate reading '%s'", w);
    strmap_add(&p->readings, p->keep, arena_strndup(p->keep, w, strlen(w)), 0);
    st->reading = w;
    return end_of_statement(p);
}

/* relation NAME OP NAME: the harness compares two named counter readings (CALL-COUNTERS-RELATION). */
static bool parse_relation_step(Parser *p, Step *st)
{
    static const char *const ops[] = {">=", ">", "=<", "<", "=:="};
    size_t at;
    const char *w[3];
    for (int k = 0; k < 3; k++) {
        w[k] = word(p, &at);
        if (k == 1) {
            size_t i = 0;
            while (w[k] && i < sizeof ops / sizeof ops[0] && strcmp(w[k], ops[i]) != 0)
                i++;
            if (!w[k] || i == sizeof ops / sizeof ops[0])
                return fail(p, at, "expected one of >=, >, =<, <, =:=");
        } else if (!w[k] || strmap_get(&p->readings, w[k]) < 0) {
            return fail(p, at, w[k] ? "no reading named '%s' before this step" : "expected a reading's name%s",
                        w[k] ? w[k] : "");
        }
    }
    st->actor = w[0];
    st->item = w[1];
    st->other = w[2];
    return end_of_statement(p);
}

/* info {M,F,A} ITEM: erlang:trace_info/2 of a fixture function (CALL-COUNTERS-INFO). */
static bool parse_function_info_step(Parser *p, Step *st)
{
    if (!term_arg(p, &st->term, &st->term_col))
        return false;
    const Term *t = st->term;
    int mod = t->kind == TK_TUPLE && t->u.tuple.n == 3 && t->u.tuple.el[0]->kind == TK_ATOM
              ? fixture_module(t->u.tuple.el[0]->u.name) : -1;
    if (mod < 0 || t->u.tuple.el[1]->kind != TK_ATOM || t->u.tuple.el[2]->kind != TK_INT ||
        (fixture_module_is_library((FixtureModule)mod) &&
         fixture_fn((FixtureModule)mod, t->u.tuple.el[1]->u.name, t->u.tuple.el[2]->u.i) < 0))
        return fail(p, (size_t)st->term_col - 1, "expected {Module,Function,Arity} of a fixture module "
                                                 "(tcs_target, tcs_late or tcs_nif) or a library target "
                                                 "({erlang,phash2,1}, {erlang,apply,2} or {lists,seq,2})");
    return function_item_arg(p, st, &st->item);
}

/* info P flags|tracer, info new flags|tracer: erlang:trace_info/2 (STATUS-INFO). */
static bool parse_info_step(Parser *p, Step *st)
{
    skip_ws(p);
    if (p->s[p->i] == '{')
        return parse_function_info_step(p, st);
    if (!target_arg(p, st, false))
        return false;
    size_t at;
    const char *w = word(p, &at);
    if (!w || (strcmp(w, "flags") != 0 && strcmp(w, "tracer") != 0))
        return fail(p, at, "expected 'flags' or 'tracer'");
    st->item = w;
    return end_of_statement(p);
}

/* A pattern on a library module names one of its library targets exactly: which functions
 * a wildcard over erlang or lists matches, and what they call, differs per release
 * (LIB-TARGET-EXACT). */
static bool library_target_exact(Parser *p, const Step *st, size_t at)
{
    int mod = fixture_module(st->module);
    if (mod < 0 || !fixture_module_is_library((FixtureModule)mod) ||
        (st->arity != ANY_ARITY && fixture_fn((FixtureModule)mod, st->fn, st->arity) >= 0))
        return true;
    return fail(p, at, "only the exact target %s of module '%s' is supported by model v1 (a wildcard or "
                "another function of a library module matches differently per release)",
                mod == MOD_ERLANG ? "erlang:phash2/1 or erlang:apply/2" : "lists:seq/2", st->module);
}

/* The pattern's target: on_load, send, 'receive', or Module:Function/Arity with '_'
 * wildcards. Modules other than the fixture modules and the library targets' are refused:
 * the model does not know their functions. */
static bool pattern_target(Parser *p, Step *st)
{
    size_t at;
    if (!atom_arg(p, "the module", &st->module, &at))
        return false;
    bool event = strcmp(st->module, "send") == 0 || strcmp(st->module, "receive") == 0;
    if ((event || strcmp(st->module, "on_load") == 0) && p->s[p->i] != ':') {
        st->event = event ? st->module : NULL;
        st->module = NULL;
        return true;
    }
    if (strcmp(st->module, "_") != 0 && fixture_module(st->module) < 0)
        return fail(p, at, "module '%s' is not supported by model v1 (tcs_target, tcs_late, tcs_nif, tcs_shapes, '_', "
                    "or the library targets erlang:phash2/1, erlang:apply/2 and lists:seq/2)", st->module);
    size_t module_at = at;
    if (p->s[p->i] != ':')
        return fail(p, p->i, "expected ':' after the module name");
    p->i++;
    if (!atom_arg(p, "the function", &st->fn, &at))
        return false;
    if (p->s[p->i] != '/')
        return fail(p, p->i, "expected '/Arity' after the function name");
    p->i++;
    Term *arity;
    size_t arity_at = p->i;
    if (!term_arg(p, &arity, NULL))
        return false;
    if (term_is_atom(arity, "_"))
        st->arity = ANY_ARITY;
    else if (arity->kind == TK_INT && arity->u.i >= 0)
        st->arity = arity->u.i;
    else
        return fail(p, arity_at, "the arity must be a non-negative integer or '_'");
    return library_target_exact(p, st, module_at);
}

/* restart and pause of a function pattern: for call_count, call_time and call_memory only
 * (003, function/4: "The behavior is undefined for other FlagList options"), and not for
 * on_load, whose counters info/3 reports as true or false only. */
static bool counter_restart_allowed(Parser *p, const Step *st)
{
    bool counter = false;
    for (int i = 0; i < st->nopts; i++) {
        bool is_counter = st->opts[i] && (strcmp(st->opts[i], "call_count") == 0 || strcmp(st->opts[i], "call_time") == 0
                                          || strcmp(st->opts[i], "call_memory") == 0);
        if (!is_counter)
            return fail(p, (size_t)st->term_col - 1, "'%s' with options other than call_count, call_time and "
                        "call_memory (undefined in 003, function/4) is not supported by model v1", st->term->u.name);
        counter = true;
    }
    if (!counter || !st->module)
        return fail(p, (size_t)st->term_col - 1, "'%s' %s is not supported by model v1", st->term->u.name,
                    counter ? "of an on_load pattern" : "without call_count, call_time or call_memory "
                              "(undefined in 003, function/4)");
    return true;
}

enum { MAX_PATTERN_ROUNDS = 5000 };

/* A pattern step: TARGET MS OPTION... [rounds N] (`rounds` after `restart` and its options only:
 * PATTERN-RESTART-ROUNDS). For send and 'receive' every option and restart/pause
 * are allowed in a case, and give badarg (MSGPAT-NO-OPTIONS, MSGPAT-NO-RESTART); the count
 * options and a meta tracer with trace_call/5 only matter for function patterns. In a trace
 * session (session) an option may be a tuple, to be refused, and every option is kept as a
 * term in st->sargs. */
static bool parse_pattern_step(Parser *p, Step *st, bool session)
{
    if (!pattern_target(p, st) || !term_arg(p, &st->term, &st->term_col))
        return false;
    bool restart = term_is_atom(st->term, "restart") || term_is_atom(st->term, "pause");
    MsDialect dialect = !st->event ? MS_FOR_CALL : strcmp(st->event, "send") == 0 ? MS_FOR_SEND : MS_FOR_RECEIVE;
    MsVerdict v = ms_validate_for(st->term, dialect);
    if (!restart && v.check == MS_UNSUPPORTED)
        return fail(p, (size_t)st->term_col - 1, "%s", v.msg);
    st->ms_invalid = restart ? NULL : v.rule; /* set only for MS_INVALID */
    st->ms_otp26 = restart || !v.otp26[0] ? NULL : arena_strndup(p->a, v.otp26, strlen(v.otp26));
    Term *all[MAX_STEP_FLAGS];
    size_t nall = 0;
    st->rounds = 1;
    while (!at_end(p)) {
        size_t at = p->i;
        if (nall > 0 && next_word_is(p, "rounds")) {
            if (session || st->event || !term_is_atom(st->term, "restart"))
                return fail(p, at, "'rounds' is for a legacy function pattern's 'restart' only");
            if (!int_in_range(p, "the rounds", 2, MAX_PATTERN_ROUNDS, &st->rounds) || !end_of_statement(p))
                return false;
            break;
        }
        Term *t;
        p->meta_option = !session;
        bool parsed = session ? term_arg(p, &t, NULL) : opaque_term_arg(p, &t, NULL);
        p->meta_option = false;
        if (!parsed)
            return false;
        if (st->nopts == MAX_STEP_FLAGS || nall == MAX_STEP_FLAGS)
            return fail(p, at, "too many options");
        step_lists(p, st);
        all[nall++] = t;
        if (session && t->kind == TK_TUPLE) /* {meta, ...}: a session refuses it (badarg) */
            continue;
        if (!session && !st->event && t->kind == TK_TUPLE && t->u.tuple.n > 0 &&
            term_is_atom(t->u.tuple.el[0], "meta")) { /* the case names the meta tracer (TRACER-OPTION) */
            st->tracer_opt = st->tracer_opt ? st->tracer_opt : t;
            st->opt_terms[st->nopts] = t;
            st->opts[st->nopts++] = NULL;
            continue;
        }
        if (!no_opaque(p, at, t))
            return false;
        if (t->kind != TK_ATOM)
            return fail(p, at, "a trace_pattern option must be an atom");
        const char *opt = t->u.name;
        if (!st->event && strcmp(opt, "call_memory") == 0 && p->sc->otp < 26)
            return fail(p, at, "option 'call_memory' needs 'otp 26' or later (it is new in OTP 26)");
        const TracerDecl *tracer = session && st->session >= 0 ? &p->sessions[st->session].tracer : &p->sc->tracer;
        if (!st->event && strcmp(opt, "meta") == 0 && session && tracer->kind == TRACER_UNDEFINED)
            return fail(p, at, "option 'meta' in a trace session with tracer undefined (it has no tracer to "
                        "meta trace with) is not supported by model v1");
        if (!st->event && strcmp(opt, "meta") == 0 && tracer->kind == TRACER_RECORDER &&
            (tracer->callbacks & (1u << callback_index("trace_call"))))
            return fail(p, at, "option 'meta' with a tracer that has trace_call/5 is not supported by "
                        "model v1: OTP 25 aborts (CONFORMANCE.md, Clarification C-10)");
        st->opt_terms[st->nopts] = t;
        st->opts[st->nopts++] = opt;
    }
    if (session)
        st->sargs = term_list(p->a, nall, all);
    return !restart || st->event ? true : counter_restart_allowed(p, st);
}

/* MODULE ':' FUNCTION of a step call: a fixture module. */
static bool module_fn(Parser *p, Step *st, size_t *fn_at)
{
    size_t at;
    const char *m = ident(p, &at);
    if (!m)
        return fail(p, at, "expected Module:Function");
    if (fixture_module(m) < 0)
        return fail(p, at, "module '%s' is not supported by model v1 (tcs_target, tcs_late, tcs_nif, tcs_shapes, or "
                    "the library targets erlang:phash2/1 and lists:seq/2)", m);
    st->module = m;
    if (p->s[p->i] != ':')
        return fail(p, p->i, "expected ':' after the module name");
    p->i++;
    st->fn = ident(p, fn_at);
    if (!st->fn)
        return fail(p, *fn_at, "expected a function name");
    return true;
}

/* unload MODULE, load MODULE: only tcs_late, which a call loads again; the runner loads
 * tcs_target before the first step and needs it there, as the node's next cases do. */
static bool parse_module_step(Parser *p, Step *st, const char *kw)
{
    size_t at;
    const char *m = ident(p, &at);
    if (!m || strcmp(m, "tcs_late") != 0)
        return fail(p, at, "'%s' takes the module tcs_late (the one a call loads)", kw);
    st->module = m;
    return end_of_statement(p);
}

/* The arguments of a library target's call: erlang:phash2/1 of a term holding no pid (the hash of
 * one depends on the node's numbering of its processes; ref/vocab/phash2.c), lists:seq/2 of a
 * list of at most LIBCALLS_SEQ_MAX elements (any other arguments raise function_clause); no
 * call of erlang:apply/2, whose arguments would be a fun, which a call's arguments hold not. */
static bool library_call_args(Parser *p, int fn, Term *const *args, size_t at)
{
    const Term *node_made = fn == FN_PHASH2 ? phash2_node_made(args[0]) : NULL;
    if (node_made) {
        Buf shown;
        buf_init(&shown);
        term_print(&shown, node_made, PRINT_CANON);
        fail(p, at, "erlang:phash2/1 of a term holding %s is not supported by model v1 (its hash depends on "
             "how the node numbered it)", buf_str(&shown));
        buf_free(&shown);
        return false;
    }
    if (fn == FN_APPLY2)
        return fail(p, at, "a call of erlang:apply/2 (a library target only as the entry point of a spawned fun, "
                    "LIB-TARGET-APPLY) is not supported by model v1");
    unsigned long long len;
    if (fn == FN_SEQ && libcalls_seq_length(args[0], args[1], &len) && len > LIBCALLS_SEQ_MAX)
        return fail(p, at, "lists:seq/2 of more than %d elements is not supported by model v1", LIBCALLS_SEQ_MAX);
    return true;
}

/* The call's path after its arguments (CallPath): none, apply/3; `direct`; `fun`. */
static bool call_path(Parser *p, Step *st)
{
    if (at_end(p))
        return true;
    size_t at;
    const char *w = word(p, &at);
    if (w && strcmp(w, "direct") == 0)
        st->path = CALL_DIRECT;
    else if (w && strcmp(w, "fun") == 0)
        st->path = CALL_FUN;
    else
        return fail(p, at, "expected 'direct', 'fun' or the end of the line after the call");
    return end_of_statement(p);
}

static bool parse_call_step(Parser *p, Step *st)
{
    size_t fn_at;
    if (!module_fn(p, st, &fn_at))
        return false;
    if (!(p->s[p->i] == '('))
        return fail(p, p->i, "expected '(' after the function name");
    p->i++;
    Term *args[MAX_LIST];
    size_t n = 0;
    skip_ws(p);
    if (p->s[p->i] == ')') {
        p->i++;
    } else {
        for (;;) {
            if (n == MAX_LIST)
                return fail(p, p->i, "too many arguments");
            if (!term_arg(p, &args[n++], NULL))
                return false;
            skip_ws(p);
            if (p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->s[p->i] != ')')
                return fail(p, p->i, "expected ',' or ')' in the argument list");
            p->i++;
            break;
        }
    }
    int fn = fixture_fn(fixture_module(st->module), st->fn, (long long)n);
    if (fn < 0 || !fixture_fn_info(fn)->exported || fixture_fn_is_harness(fn))
        return fail(p, fn_at, "%s:%s/%zu is not supported by model v1 (see cases/README.md, "
                    "\"The traced functions\")", st->module, st->fn, n);
    st->args = term_list(p->a, n, args);
    return library_call_args(p, fn, args, fn_at) && call_path(p, st);
}

/* `tracer reload while A calls M:F(Args)` (`while` read): tracer_SUITE's reload/1 round, the
 * tracer module reloaded, the tracee's tracer read and the module deleted while A calls a
 * traced function again and again (TRACER-RELOAD-BUSY). */
static bool parse_reload_busy(Parser *p, Step *st)
{
    size_t at;
    const char *who = word(p, &at);
    if (!who || !known_process(p, who) || session_index(p, who) >= 0)
        return fail(p, at, "expected a process of the case after 'while'");
    st->actor = who;
    st->actor_col = (int)at + 1;
    const char *verb = word(p, &at);
    if (!verb || strcmp(verb, "calls") != 0)
        return fail(p, at, "expected 'calls M:F(Args)' after the process");
    return parse_call_step(p, st);
}

/* A binary argument: the data of port_command and port_send. */
static bool binary_arg(Parser *p, Step *st)
{
    if (!term_arg(p, &st->term, &st->term_col))
        return false;
    if (st->term->kind != TK_BIN)
        return fail(p, (size_t)st->term_col - 1, "port data must be a binary");
    return true;
}

/* What a port runs: cat (`open_port X`) or the suite's driver (`open_port X driver`). */
enum { PORT_CAT, PORT_DRIVER };

/* The operation of `port_control X OP`, X a driver port: busy, not_busy or timer N (N ms,
 * 0 to 60000). */
static bool port_control_args(Parser *p, Step *st)
{
    if (strmap_get(&p->ports, st->other) != PORT_DRIVER)
        return fail(p, (size_t)st->other_col - 1, "port '%s' runs cat: port_control needs a port "
                    "opened with 'open_port %s driver'", st->other, st->other);
    size_t at;
    const char *w = word(p, &at);
    if (!w || (strcmp(w, "busy") != 0 && strcmp(w, "not_busy") != 0 && strcmp(w, "timer") != 0))
        return fail(p, at, "expected 'busy', 'not_busy' or 'timer'");
    st->item = w;
    st->driver = true;
    if (strcmp(w, "timer") != 0)
        return true;
    skip_ws(p);
    at = p->i;
    if (!int_arg(p, "the timer's milliseconds", &st->timeout))
        return false;
    if (st->timeout < 0 || st->timeout > 60000)
        return fail(p, at, "the timer's milliseconds must be 0 to 60000");
    return true;
}

/* The entry point of a spawned process that is no scenario process: {lists,seq,[From,To]}
 * with integers From =< To + 1, or a fun `fun() -> T end` (T holding no opaque value), which
 * return and do nothing a tracer sees (model v1 knows no other function that is not a
 * fixture's). */
static bool spawn_entry_arg(Parser *p, Step *st)
{
    skip_ws(p);
    size_t at = p->i;
    if (!opaque_term_arg(p, &st->term, &st->term_col))
        return false;
    if (st->term->kind == TK_FUN) /* spawn(Fun): PROCS-SPAWN-FUN */
        return no_opaque(p, at, st->term->u.fun_body);
    if (!no_opaque(p, at, st->term))
        return false;
    const Term *t = st->term, *a = t->kind == TK_TUPLE && t->u.tuple.n == 3 ? t->u.tuple.el[2] : NULL;
    const Term *from = a && a->kind == TK_CONS ? a->u.cons.head : NULL;
    const Term *rest = from ? a->u.cons.tail : NULL;
    const Term *to = rest && rest->kind == TK_CONS ? rest->u.cons.head : NULL;
    if (!to || !term_is_atom(t->u.tuple.el[0], "lists") || !term_is_atom(t->u.tuple.el[1], "seq") ||
        rest->u.cons.tail->kind != TK_NIL || from->kind != TK_INT || to->kind != TK_INT ||
        from->u.i > to->u.i + 1)
        return fail(p, (size_t)st->term_col - 1, "an entry point other than {lists,seq,[From,To]} "
                    "(From =< To + 1) or fun() -> T end is not supported by model v1");
    return true;
}

/* True, with the cursor after it, iff the next word is `what` (after `tracer`: exit, unload). */
static bool next_word_is(Parser *p, const char *what)
{
    size_t save = p->i, at;
    const char *w = word(p, &at);
    if (w && strcmp(w, what) == 0)
        return true;
    p->i = save;
    return false;
}

/* --- trace sessions ------------------------------------------------------------------ */

/* session NAME tracer recorder|erl_msg_tracer|process */
static bool parse_session_decl(Parser *p)
{
    size_t at;
    const char *name = word(p, &at);
    if (!name || !is_name(name))
        return fail(p, at, "expected a session name ([a-z][a-zA-Z0-9_]*)");
    if (!name_fits(p, name, at))
        return false;
    if (strcmp(name, "tracer") == 0 || strcmp(name, "legacy") == 0 || strcmp(name, "meta") == 0 ||
        spec_lookup(name) != SPEC_PID)
        return fail(p, at, "'%s' cannot name a session (reserved)", name);
    if (session_index(p, name) >= 0)
        return fail(p, at, "duplicate session '%s'", name);
    if (p->sc->otp < 27)
        return fail(p, at, "trace sessions need 'otp 27' or later (module trace is new in OTP 27)");
    const char *w = word(p, &at);
    if (!w || strcmp(w, "tracer") != 0)
        return fail(p, at, "expected 'tracer' after the session name");
    w = word(p, &at);
    TracerKind kind;
    if (w && strcmp(w, "recorder") == 0)
        kind = TRACER_RECORDER;
    else if (w && strcmp(w, "erl_msg_tracer") == 0)
        kind = TRACER_ERL_MSG;
    else if (w && strcmp(w, "process") == 0)
        kind = TRACER_PROCESS;
    else if (w && strcmp(w, "undefined") == 0)
        kind = TRACER_UNDEFINED;
    else
        return fail(p, at, "a session's tracer must be 'recorder', 'erl_msg_tracer', 'process' or 'undefined'");
    size_t save = p->i, mat;
    const char *more = word(p, &mat);
    if (more && strcmp(more, "match_binaries") == 0)
        return fail(p, mat, "'match_binaries' is for the legacy tracer process only ('tracer process "
                            "match_binaries'): a session's tracer process hands its messages on unread");
    p->i = save;
    if (kind == TRACER_UNDEFINED && p->sc->tracer.kind != TRACER_PROCESS)
        return fail(p, at, "a session with tracer undefined needs 'tracer process': its processes' tracer "
                           "is the process <tracer>, named by {tracer,<tracer>} in each trace step");
    if (kind == TRACER_ERL_MSG && p->sc->tracer.kind != TRACER_ERL_MSG)
        return fail(p, at, "a session with tracer erl_msg_tracer needs 'tracer erl_msg_tracer' as the "
                           "legacy tracer (the example loads its library once, by name)");
    finish_tracer(p);
    size_t cap = p->sessions_cap;
    p->sessions = arena_grow(p->keep, p->sessions, p->nsessions, &p->sessions_cap, sizeof *p->sessions);
    p->phase = arena_grow(p->keep, p->phase, p->nsessions, &cap, sizeof *p->phase);
    SessionDecl *d = &p->sessions[p->nsessions++];
    d->name = name;
    d->tracer.kind = kind;
    d->tracer.default_answer = ANS_TRACE;
    p->cur = &d->tracer;
    return end_of_statement(p);
}

/* A session reference: NAME (its strong handle) or weak(NAME); weak(legacy) is the legacy
 * session's weak handle.  Checks the session exists at this point of the steps. */
static bool session_ref(Parser *p, Step *st, bool weak_allowed)
{
    size_t at;
    skip_ws(p);
    if (strncmp(p->s + p->i, "term(", 5) == 0) { /* term(T): a term that is no handle */
        at = p->i;
        p->i += 5;
        if (st->sop != SO_INFO && st->sop != SO_DESTROY && st->sop != SO_APPLY)
            return fail(p, at, "term(...) as the session is only supported for info, destroy and apply");
        if (!opaque_term_arg(p, &st->session_term, NULL)) /* make_ref() too: it only raises */
            return false;
        skip_ws(p);
        if (p->s[p->i] != ')')
            return fail(p, p->i, "expected ')' after the term");
        p->i++;
        st->session = SESSION_LEGACY;
        st->weak = true;
        return true;
    }
    const char *w = word(p, &at);
    if (!w)
        return fail(p, at, "expected a session, found end of line");
    size_t n = strlen(w);
    if (n > 6 && strncmp(w, "weak(", 5) == 0 && w[n - 1] == ')') {
        if (!weak_allowed)
            return fail(p, at, "a weak handle is not allowed here");
        st->weak = true;
        w = arena_strndup(p->a, w + 5, n - 6);
    }
    if (st->weak && strcmp(w, "legacy") == 0) {
        st->session = SESSION_LEGACY;
        return true;
    }
    st->session = session_index(p, w);
    if (st->session < 0)
        return fail(p, at, strcmp(w, "legacy") == 0 ? "the legacy session has only a weak handle: weak(legacy)"
                                                    : "unknown session '%s'", w);
    SessionPhase ph = p->phase[st->session];
    if (st->sop == SO_CREATE && ph != SES_UNBORN)
        return fail(p, at, "session '%s' is already created", w);
    if (st->sop != SO_CREATE && ph == SES_UNBORN)
        return fail(p, at, "session '%s' is used before 'create %s'", w, w);
    if (st->sop != SO_CREATE && !st->weak && ph == SES_DROPPED)
        return fail(p, at, "session '%s' has no strong handle after 'drop %s' (use weak(%s))", w, w, w);
    return true;
}

/* WHAT of an info or session_info step: a port opened earlier, by its name (printed
 * <port:x>), or any term. */
static bool what_arg(Parser *p, Step *st)
{
    size_t save = p->i, at;
    const char *w = word(p, &at);
    if (w && is_port_name(p, w)) {
        st->term = term_port(p->a, w);
        st->term_col = (int)at + 1;
        return true;
    }
    p->i = save;
    return term_arg(p, &st->term, &st->term_col);
}

/* create NAME [OPTS] | destroy REF | drop NAME | trace REF P on|off OPT... |
 * pattern REF TARGET MS OPT... (TARGET send or 'receive': trace:send/3, trace:recv/3) |
 * info REF WHAT ITEM | session_info WHAT | delivered REF WHAT */
static bool parse_session_step(Parser *p, Step *st, SessionOp op)
{
    st->kind = ST_SESSION;
    st->sop = op;
    if (op == SO_SESSION_INFO)
        return what_arg(p, st) && end_of_statement(p);
    if (!session_ref(p, st, op != SO_CREATE && op != SO_DROP))
        return false;
    switch (op) {
    case SO_CREATE:
        if (at_end(p)) {
            st->sargs = term_nil(p->a);
        } else if (!term_arg(p, &st->sargs, &st->term_col)) {
            return false;
        }
        if (st->sargs->kind == TK_NIL) /* other Opts raise badarg: no session */
            p->phase[st->session] = SES_CREATED;
        break;
    case SO_DROP:
        p->phase[st->session] = SES_DROPPED;
        break;
    case SO_PROCESS:
        return parse_trace_step(p, st, true);
    case SO_FUNCTION: /* or trace:send/3, trace:recv/3 for the targets send and 'receive' */
        if (!parse_pattern_step(p, st, true))
            return false;
        if (st->event)
            st->sop = strcmp(st->event, "send") == 0 ? SO_SEND : SO_RECV;
        return true;
    case SO_INFO: {
        if (!what_arg(p, st))
            return false;
        skip_ws(p);
        size_t at = p->i;
        if (!term_arg(p, &st->sargs, NULL))
            return false;
        if (st->sargs->kind != TK_ATOM)
            return fail(p, at, "the info item must be an atom, e.g. flags");
        st->item = st->sargs->u.name;
        return reading_name(p, st);
    }
    case SO_DELIVERED:
        if (!term_arg(p, &st->term, &st->term_col))
            return false;
        break;
    case SO_SYSTEM: /* system REF EVENT VALUE: trace:system/3 (OTP 28+) */
        if (st->session >= 0 && p->sessions[st->session].tracer.kind == TRACER_UNDEFINED)
            return fail(p, (size_t)st->col - 1, "trace:system/3 in a session with tracer undefined is not "
                        "supported by model v1");
        if (!term_arg(p, &st->term, &st->term_col) || !term_arg(p, &st->sargs, NULL))
            return false;
        break;
    default: /* SO_DESTROY: nothing more */
        break;
    }
    return end_of_statement(p);
}

/* The functions of module trace an `apply` step may call, their arity, and whether the
 * first argument is the session. */
static const struct { const char *fn; int arity; bool session; } apply_fns[] = {
    {"process", 4, true}, {"port", 4, true}, {"function", 4, true}, {"send", 3, true}, {"recv", 3, true},
    {"info", 3, true},
    {"session_create", 3, false}, {"session_destroy", 1, true}, {"session_info", 1, false},
};

/* The session argument of an apply step: term(T), or a handle that ends at the next ',' or
 * ')' (read by session_ref from the line cut there, so that columns stay right). */
static bool apply_session(Parser *p, Step *st)
{
    skip_ws(p);
    if (strncmp(p->s + p->i, "term(", 5) == 0)
        return session_ref(p, st, true);
    size_t end = p->i + (strncmp(p->s + p->i, "weak(", 5) == 0 ? 5 : 0);
    while (p->s[end] && p->s[end] != ',' && p->s[end] != ')' && !is_blank(p->s[end]))
        end++;
    end += strncmp(p->s + p->i, "weak(", 5) == 0 && p->s[end] == ')';
    Parser cut = *p;
    cut.s = arena_strndup(p->a, p->s, end);
    if (!session_ref(&cut, st, true))
        return false;
    p->i = cut.i;
    return true;
}

/* apply trace:FN(ARG, ...): a call of module trace with arguments no other step can write (a
 * pid or port of another node, an atomics reference, a string where a name goes); the session,
 * for the functions that take one, is written as in the other session steps. */
static bool parse_apply_step(Parser *p, Step *st)
{
    st->kind = ST_SESSION;
    st->sop = SO_APPLY;
    skip_ws(p);
    size_t at = p->i, n = 0;
    if (strncmp(p->s + p->i, "trace:", 6) != 0)
        return fail(p, at, "expected trace:FUNCTION(ARGS) after 'apply'");
    p->i += 6;
    while (p->s[p->i + n] == '_' || (p->s[p->i + n] >= 'a' && p->s[p->i + n] <= 'z'))
        n++;
    int k = -1;
    for (int i = 0; i < (int)(sizeof apply_fns / sizeof apply_fns[0]); i++)
        if (strlen(apply_fns[i].fn) == n && strncmp(apply_fns[i].fn, p->s + p->i, n) == 0)
            k = i;
    if (k < 0)
        return fail(p, p->i, "apply calls one of trace:process/4, port/4, function/4, send/3, recv/3, "
                             "info/3, session_create/3, session_destroy/1, session_info/1");
    st->fn = apply_fns[k].fn;
    p->i += n;
    if (p->s[p->i] != '(')
        return fail(p, p->i, "expected '(' after trace:%s", st->fn);
    p->i++;
    st->session = SESSION_NONE;
    if (apply_fns[k].session && !apply_session(p, st))
        return false;
    Term *args[4];
    int nargs = apply_fns[k].session ? 1 : 0;
    for (; nargs < apply_fns[k].arity; nargs++) {
        skip_ws(p);
        if (nargs > 0 && p->s[p->i++] != ',')
            return fail(p, p->i - 1, "trace:%s/%d takes %d arguments", st->fn, apply_fns[k].arity,
                        apply_fns[k].arity);
        if (!opaque_term_arg(p, &args[nargs - (apply_fns[k].session ? 1 : 0)], nargs == 1 ? &st->term_col : NULL))
            return false;
    }
    skip_ws(p);
    if (p->s[p->i] != ')')
        return fail(p, p->i, "trace:%s/%d takes %d arguments", st->fn, apply_fns[k].arity, apply_fns[k].arity);
    p->i++;
    int nrest = apply_fns[k].arity - (apply_fns[k].session ? 1 : 0);
    st->args = term_list(p->a, (size_t)nrest, args);
    /* a process or port spec is the trace step's (trace sa new on ...) */
    if ((strcmp(st->fn, "process") == 0 || strcmp(st->fn, "port") == 0) && args[0]->kind == TK_ATOM &&
        spec_lookup(args[0]->u.name) != SPEC_PID)
        return fail(p, (size_t)st->term_col - 1, "a process or port spec is written as a trace step "
                                                 "(trace SESSION %s on ...)", args[0]->u.name);
    return end_of_statement(p);
}

/* The session step a keyword starts, if any: `trace`, `pattern` and `info` with a session as
 * their first argument are the session forms of erlang:trace/3, erlang:trace_pattern/3 and
 * erlang:trace_info/2, and without one the harness's steps of that keyword. */
static bool session_op(Parser *p, const char *kw, SessionOp *op)
{
    for (int o = 0; o < SESSION_OPS; o++) {
        const char *k = session_op_keyword((SessionOp)o);
        if (!k || strcmp(k, kw) != 0)
            continue;
        bool harness = false; /* the keyword of a harness's step too */
        for (int h = 0; h < STEP_KINDS; h++)
            harness = harness || (step_keyword((StepKind)h) && strcmp(step_keyword((StepKind)h), kw) == 0);
        size_t save = p->i, at;
        const char *w = word(p, &at);
        p->i = save;
        if (harness && !(w && (strncmp(w, "weak(", 5) == 0 || strncmp(w, "term(", 5) == 0 ||
                               session_index(p, w) >= 0 || strcmp(w, "legacy") == 0)))
            return false;
        *op = (SessionOp)o;
        return true;
    }
    return false;
}

/* Whether a step sets a meta pattern (a legacy pattern's `meta` with a match spec other than
 * false), naming the tracer process as the meta tracer. */
static bool names_meta(const Step *st)
{
    if (st->kind != ST_PATTERN || !st->opts || (st->term && term_is_atom(st->term, "false")))
        return false;
    for (int i = 0; i < st->nopts; i++)
        if (st->opts[i] && strcmp(st->opts[i], "meta") == 0)
            return true;
    return false;
}

/* What the model does not do with the tracer process once it has exited (STATUS-DEAD-PROCESS):
 * name it again, as a tracer (legacy, or a session's with tracer undefined), a meta tracer or the
 * seq_trace system tracer (the harness has no second tracer process). */
static const char *dead_process_tracer(const Parser *p, const Step *st)
{
    const char *what = NULL;
    if (p->tracer_exited && (((st->kind == ST_TRACE || st->kind == ST_SESSION) && st->on) || names_meta(st) ||
                   st->kind == ST_SEQ_TRACER || st->kind == ST_TRACER_EXIT || st->kind == ST_KILL_ALL))
        what = "a step naming the tracer process after 'tracer exit' or 'kill_all' is";
    return what;
}

/* What the model does not do with a legacy tracer that is a process ({tracer, <tracer>}) or the
 * tracer port: scheduler ids in its messages (fuzz group J5: `all` brings them too), ending it once
 * it is the seq_trace system tracer, and the steps dead_process_tracer names. */
static bool process_tracer_allows(Parser *p, const Step *st, size_t at)
{
    if (p->sc->tracer.kind != TRACER_PROCESS)
        return true;
    const char *what = dead_process_tracer(p, st);
    for (int i = 0; st->kind == ST_TRACE && st->on && i < st->nflags; i++)
        if (st->flags[i] == FL_SCHEDULER_ID || st->flags[i] == FL_ALL) /* a positive integer, ambiguous in
                                                                           * the message's shape; `all` holds it */
            what = "scheduler ids in a tracer process's messages (flag scheduler_id, or all, which holds it) are";
    if (p->tracer_port && names_meta(st))
        what = "a meta pattern with the tracer port ({meta, Port}) is";
    if ((st->kind == ST_TRACER_EXIT || st->kind == ST_KILL_ALL) && p->seq_tracer)
        what = "ending the tracer process or port once it is the seq_trace system tracer is";
    return what ? fail(p, at, "%s not supported by model v1", what) : true;
}

/* `system_monitor` reads erlang:system_monitor() (SYSMON-LEGACY-APART); `system_monitor
 * undefined` clears it; `system_monitor P large_heap N` sets it to a scenario process P, or to
 * the tracer process (`tracer`), with a large_heap limit of N words, `system_monitor P
 * long_schedule N` with a long_schedule limit of N milliseconds (SYSMON-LEGACY-SET). */
static bool parse_system_monitor(Parser *p, Step *st)
{
    if (at_end(p))
        return true;
    size_t at, save = p->i;
    const char *w = word(p, &at);
    bool tracer = w && strcmp(w, "tracer") == 0 && p->sc->tracer.kind == TRACER_PROCESS;
    if (!w || !(tracer || strcmp(w, "undefined") == 0 || (known(p, w) && !is_port_name(p, w)))) {
        p->i = save;
        return end_of_statement(p);
    }
    st->other = w;
    st->other_col = (int)at + 1;
    if (strcmp(w, "undefined") == 0)
        return end_of_statement(p);
    const char *event = word(p, &at);
    if (!event || (strcmp(event, "large_heap") != 0 && strcmp(event, "long_schedule") != 0))
        return fail(p, at, "'system_monitor P' takes large_heap N or long_schedule N, the options model v1 knows");
    st->item = event;
    skip_ws(p);
    at = p->i;
    if (!term_arg(p, &st->term, &st->term_col))
        return false;
    if (st->term->kind != TK_INT)
        return fail(p, at, "the %s limit must be an integer", event);
    return end_of_statement(p);
}

/* `tracer port` (PORT-TRACER): the harness opens a port and the legacy tracer process becomes
 * it, for every step after; so it needs `tracer process`, comes first, once, and in a case
 * without sessions (a session with tracer undefined would name the process). */
static bool tracer_port_args(Parser *p, size_t at)
{
    if (p->sc->tracer.kind != TRACER_PROCESS)
        return fail(p, at, "'tracer port' needs 'tracer process' (the port takes the tracer process's place)");
    if (p->stepped)
        return fail(p, at, "'tracer port' must be the case's first step");
    if (p->nsessions > 0)
        return fail(p, at, "'tracer port' in a case with trace sessions is not supported by model v1");
    if (p->sc->tracer.match_binaries)
        return fail(p, at, "'tracer port' with 'tracer process match_binaries': the port's messages come back "
                           "as bytes the harness decodes, no binary of the runtime's to match");
    if (known(p, "tracer_port")) /* the harness names the port so (<port:tracer_port>) */
        return fail(p, at, "'tracer port' names its port tracer_port, a process of the case here");
    p->tracer_port = true;
    return end_of_statement(p);
}

enum { MAX_KILL_ALL = 16, MAX_KILL_ALL_ROUNDS = 5000 };

/* `kill_all tracer P... [rounds N]` (KILL-ALL-PORT-OWNER): the names the burst kills, in order, into
 * st->args as a list of atoms; the tracer port's owner first (`tracer`), then distinct processes of
 * the case; st->rounds the bursts the harness does, 1 without `rounds` (KILL-ALL-ROUNDS: the other
 * N - 1 on processes and a port of its own). Model v1 states a burst only with the owner in it (the
 * port closing under its tracees, C-502). */
static bool kill_all_args(Parser *p, Step *st, size_t at)
{
    size_t tracer_at;
    const char *first = word(p, &tracer_at);
    if (!first || strcmp(first, "tracer") != 0 || !p->tracer_port)
        return fail(p, at, "'kill_all' without the tracer port's owner first ('tracer port', then "
                           "'kill_all tracer P...') is not supported by model v1");
    Term *names[MAX_KILL_ALL + 1];
    size_t n = 0;
    names[n++] = term_atom(p->a, first);
    st->rounds = 1;
    while (!at_end(p)) {
        if (n > 1 && next_word_is(p, "rounds")) {
            if (!int_in_range(p, "the rounds", 2, MAX_KILL_ALL_ROUNDS, &st->rounds) || !end_of_statement(p))
                return false;
            break;
        }
        if (n > MAX_KILL_ALL)
            return fail(p, at, "'kill_all' names at most %d processes", MAX_KILL_ALL);
        const char *w;
        int col;
        if (!proc_arg(p, &w, &col))
            return false;
        for (size_t i = 1; i < n; i++)
            if (term_is_atom(names[i], w))
                return fail(p, (size_t)col - 1, "'%s' is named twice in 'kill_all'", w);
        names[n++] = term_atom(p->a, w);
    }
    if (n < 2)
        return fail(p, at, "'kill_all tracer' needs at least one process after 'tracer'");
    st->actor = first;
    st->actor_col = (int)tracer_at + 1;
    st->args = term_list(p->a, n, names);
    return true;
}

/* The harness's step the line begins with (kw read): the row of the step table whose keyword's
 * words come next, the one of most words if several do ("tracer reload while"), its words read;
 * false, the cursor left where it was, if none does. */
static bool harness_step(Parser *p, const char *kw, StepKind *kind)
{
    size_t start = p->i, end = start;
    int most = 0;
    for (int k = 0; k < STEP_KINDS; k++) {
        const char *phrase = step_keyword((StepKind)k);
        if (step_by_process((StepKind)k) || !phrase || !begins(phrase, kw))
            continue;
        int words = 1;
        const char *rest = phrase + strcspn(phrase, " ");
        while (*rest && words) {
            size_t n = strcspn(rest + 1, " ");
            words = next_word_is(p, arena_strndup(p->a, rest + 1, n)) ? words + 1 : 0;
            rest += 1 + n;
        }
        if (words > most) {
            most = words;
            *kind = (StepKind)k;
            end = p->i;
        }
        p->i = start;
    }
    p->i = end;
    return most > 0;
}

/* The process's step a verb names (the word after the process's name). */
static bool process_step(const char *verb, StepKind *kind)
{
    for (int k = 0; k < STEP_KINDS; k++)
        if (step_by_process((StepKind)k) && strcmp(step_keyword((StepKind)k), verb) == 0) {
            *kind = (StepKind)k;
            return true;
        }
    return false;
}

enum { MAX_REPEAT = 10000, MIN_MAX_HEAP_SIZE = 1000, MAX_WAIT_MS = 5000 };

/* `together` opens a block, `end` closes it (cases/README.md "Steps together"): no block inside
 * another, none empty or of one process only. */
static bool together_line(Parser *p, const Step *st, size_t at)
{
    if (!end_of_statement(p))
        return false;
    if (st->kind == ST_TOGETHER) {
        if (p->block_line)
            return fail(p, at, "'together' inside the together block of line %d", p->block_line);
        p->block_line = st->line;
        p->block_col = st->col;
        p->block_first = NULL;
        p->block_two = false;
        return true;
    }
    if (!p->block_line)
        return fail(p, at, "'end' without 'together'");
    if (!p->block_two)
        return fail(p, at, "a together block needs steps of two processes or more (its 'together': line %d)",
                    p->block_line);
    p->block_line = 0;
    return true;
}

/* `P pattern M:F/A MS OPTS`: a fixture function, a match spec (no restart or pause), global or local
 * (PATTERN-BY-PROCESS): what a process calling erlang:trace_pattern/3 does alike on every release;
 * the other forms are the harness's (a meta pattern would make P the meta tracer). */
static bool proc_pattern_args(Parser *p, Step *st, size_t at)
{
    if (!parse_pattern_step(p, st, false))
        return false;
    bool function = !st->event && st->module && strcmp(st->module, "_") != 0 && strcmp(st->fn, "_") != 0 &&
                    st->arity != ANY_ARITY;
    bool plain = st->rounds == 1 && st->opts && !term_is_atom(st->term, "restart") && !term_is_atom(st->term, "pause");
    for (int i = 0; plain && i < st->nopts; i++)
        plain = strcmp(st->opts[i], "global") == 0 || strcmp(st->opts[i], "local") == 0;
    if (!function || !plain)
        return fail(p, at, "a process's pattern takes a function M:F/A, a match spec and the options global or "
                           "local only (the other forms are the harness's: pattern ...)");
    return true;
}

/* The kinds of a process's step a together block may hold: those whose lines, done beside other
 * processes' steps, the model can state (BLOCK-TOGETHER-STEPS). */
static bool together_allows(StepKind kind)
{
    static const StepKind allowed[] = {ST_SEND, ST_RECV, ST_CALL, ST_LINK, ST_UNLINK, ST_MONITOR, ST_TRAP_EXIT,
                                       ST_GC, ST_MS_TEST, ST_PROC_PATTERN};
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (allowed[i] == kind)
            return true;
    return false;
}

/* A step read inside an open together block (st: a process's, of an allowed kind): marked, and
 * its process counted. */
static bool together_step(Parser *p, Step *st, size_t at)
{
    if (!step_by_process(st->kind))
        return fail(p, at, "only a process's step can be in a together block (its 'together': line %d)",
                    p->block_line);
    if (!together_allows(st->kind))
        return fail(p, at, "'%s' cannot be in a together block: only send, recv, call, link, unlink, monitor, "
                           "trap_exit, gc, ms_test and pattern can",
                    step_keyword(st->kind));
    st->together = true;
    if (!p->block_first)
        p->block_first = st->actor;
    else if (strcmp(p->block_first, st->actor) != 0)
        p->block_two = true;
    return true;
}

/* An integer argument (what it is: what) from lo to hi into out. */
static bool int_in_range(Parser *p, const char *what, long long lo, long long hi, long long *out)
{
    skip_ws(p);
    size_t at = p->i;
    if (!int_arg(p, what, out))
        return false;
    if (*out < lo || *out > hi)
        return fail(p, at, "%s must be %lld to %lld", what, lo, hi);
    return true;
}

/* `times N` after a send or a receive: the step done N times in a row, as N steps of their own
 * (a queue that grows to N messages, or N messages taken). */
static bool times_count(Parser *p)
{
    return int_in_range(p, "the count", 1, MAX_REPEAT, &p->repeat);
}

/* recv [after N | match T | times N] */
static bool recv_args(Parser *p, Step *st)
{
    size_t at;
    const char *w = word(p, &at);
    if (w && strcmp(w, "times") == 0) /* recv times N: N plain receives */
        return times_count(p);
    if (w && strcmp(w, "match") == 0) /* recv match T: a selective receive of T */
        return term_arg(p, &st->term, &st->term_col);
    if (!w)
        return true;
    if (strcmp(w, "after") != 0)
        return fail(p, at, "expected 'after', 'match', 'times' or end of line");
    st->has_timeout = true;
    skip_ws(p);
    at = p->i;
    if (!int_arg(p, "timeout", &st->timeout))
        return false;
    if (st->timeout < 0)
        return fail(p, at, "timeout must not be negative");
    return true;
}

/* One option of `spawn Q options [...]`: those of spawn_opt/4 that change no event of the
 * child's (PROCS-SPAWN-OPTS), with the values erlang:spawn_opt/4 takes. */
static bool spawn_option(Parser *p, size_t at, const Term *o)
{
    static const char *const sizes[] = {"min_heap_size", "min_bin_vheap_size", "fullsweep_after"};
    const Term *key = o->kind == TK_TUPLE && o->u.tuple.n == 2 ? o->u.tuple.el[0] : NULL;
    const Term *val = key ? o->u.tuple.el[1] : NULL;
    if (!key || key->kind != TK_ATOM)
        return fail(p, at, "a spawn option is a pair {Name, Value}");
    if (strcmp(key->u.name, "message_queue_data") == 0)
        return term_is_atom(val, "off_heap") || term_is_atom(val, "on_heap") ||
               fail(p, at, "{message_queue_data, D} takes off_heap or on_heap");
    if (strcmp(key->u.name, "priority") == 0)
        return term_is_atom(val, "low") || term_is_atom(val, "normal") || term_is_atom(val, "high") ||
               term_is_atom(val, "max") || fail(p, at, "{priority, P} takes low, normal, high or max");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(key->u.name, sizes[i]) == 0)
            return (val->kind == TK_INT && val->u.i >= 0) ||
                   fail(p, at, "{%s, N} takes an integer N >= 0", sizes[i]);
    return fail(p, at, "spawn option '%s' is not supported by model v1 (message_queue_data, priority, "
                "min_heap_size, min_bin_vheap_size, fullsweep_after)", key->u.name);
}

/* The list of `spawn Q options [...]` (the word read). */
static bool spawn_options_arg(Parser *p, Step *st)
{
    skip_ws(p);
    size_t at = p->i;
    if (!term_arg(p, &st->spawn_opts, NULL))
        return false;
    if (term_list_length(st->spawn_opts) < 1)
        return fail(p, at, "the options of a spawn are a non-empty proper list");
    for (const Term *o = st->spawn_opts; o->kind == TK_CONS; o = o->u.cons.tail)
        if (!spawn_option(p, at, o->u.cons.head))
            return false;
    return true;
}

/* wait MS while B sends T: a receive with no clause on messages, `receive after MS -> ok end`
 * (MS from 1 to 5000: the step stays well within the watchdog's limit), while process B sends
 * the waiting process T */
static bool wait_args(Parser *p, Step *st)
{
    if (!int_in_range(p, "the wait's milliseconds", 1, MAX_WAIT_MS, &st->timeout))
        return false;
    st->has_timeout = true;
    size_t at;
    const char *w = word(p, &at);
    if (!w || strcmp(w, "while") != 0)
        return fail(p, at, "expected 'while B sends T' after the wait's milliseconds");
    if (!proc_arg(p, &st->other, &st->other_col))
        return false;
    w = word(p, &at);
    if (!w || strcmp(w, "sends") != 0)
        return fail(p, at, "expected 'sends T' after the sending process");
    return term_arg(p, &st->term, &st->term_col);
}

/* spawn|spawn_link NEW [options [Opt...] | {lists,seq,[From,To]} [max_heap_size N]] */
static bool spawn_args(Parser *p, Step *st, const char *verb)
{
    if (!new_name_arg(p, "process", verb, &st->other, &st->other_col))
        return false;
    if (next_word_is(p, step_keyword(ST_PEER))) { /* spawn/4 on the peer node (DIST-SPAWN) */
        st->on_peer = true;
        return true;
    }
    if (next_word_is(p, "options")) /* spawn_opt/4 of a scenario process */
        return spawn_options_arg(p, st);
    if (!at_end(p) && !spawn_entry_arg(p, st)) /* an entry point {M,F,Args} (E6) */
        return false;
    if (st->term && next_word_is(p, "max_heap_size")) { /* spawn_opt with max_heap_size */
        skip_ws(p);
        size_t at = p->i;
        if (st->term->kind == TK_FUN)
            return fail(p, at, "max_heap_size with a fun as entry point is not supported by model v1");
        if (!int_arg(p, "max_heap_size", &st->max_heap_size))
            return false;
        if (st->max_heap_size < MIN_MAX_HEAP_SIZE)
            return fail(p, at, "max_heap_size must be at least %d words", MIN_MAX_HEAP_SIZE);
    }
    return true;
}

/* register|unregister NAME, register NAME PORT */
static bool register_args(Parser *p, Step *st)
{
    const char *name;
    size_t at;
    skip_ws(p);
    st->term_col = (int)p->i + 1;
    if (!atom_arg(p, "a registered name", &name, &at))
        return false;
    if (strcmp(name, "undefined") == 0)
        return fail(p, at, "'undefined' cannot be a registered name");
    st->term = term_atom(p->a, name);
    return st->kind != ST_REGISTER || at_end(p) || entity_arg(p, false, &st->other, &st->other_col);
}

/* open_port NEW [driver]: cat, or the suite's linked-in driver */
static bool open_port_args(Parser *p, Step *st, const char *verb)
{
    if (!new_name_arg(p, "port", verb, &st->other, &st->other_col))
        return false;
    if (!at_end(p)) {
        size_t at;
        const char *w = word(p, &at);
        if (strcmp(w, "driver") != 0)
            return fail(p, at, "expected 'driver' or end of line");
        st->driver = true;
    }
    strmap_add(&p->ports, p->keep, arena_strndup(p->keep, st->other, strlen(st->other)),
               st->driver ? PORT_DRIVER : PORT_CAT);
    return true;
}

/* seq_token KEY VALUE: seq_trace:set_token/2 */
static bool seq_token_args(Parser *p, Step *st)
{
    static const char *const token_keys[] = {"label", "send", "receive", "print", "timestamp",
                                             "monotonic_timestamp", "strict_monotonic_timestamp"};
    const char *key;
    size_t at;
    if (!atom_arg(p, "a seq_trace token component", &key, &at))
        return false;
    size_t k = 0;
    while (k < sizeof token_keys / sizeof token_keys[0] && strcmp(token_keys[k], key) != 0)
        k++;
    if (k == sizeof token_keys / sizeof token_keys[0])
        return fail(p, at, "unknown seq_trace token component '%s'", key);
    st->fn = key;
    if (!term_arg(p, &st->term, &st->term_col))
        return false;
    bool is_bool = term_is_atom(st->term, "true") || term_is_atom(st->term, "false");
    if (k == 0 ? st->term->kind != TK_INT || st->term->u.i < 0 : !is_bool)
        return fail(p, (size_t)st->term_col - 1, k == 0 ? "a label must be a non-negative integer"
                                                        : "the value must be true or false");
    return true;
}

/* A token's time stamp would end the {seq_trace, Label, Info, Ts} of a tracer process or port that
 * is the system seq tracer, the peer node's too, a shape the stream's placeholders do not cover
 * (model v1): refused at whichever of the two comes second, the token or the seq tracer's step. */
static bool seq_stamps_allowed(Parser *p, const Step *st, size_t at)
{
    if (st->kind == ST_SEQ_TOKEN)
        p->seq_stamps |= strstr(st->fn, "timestamp") != NULL && term_is_atom(st->term, "true");
    bool process_seq_tracer = (p->sc->tracer.kind == TRACER_PROCESS && p->seq_tracer) || p->peer_seq_tracer;
    if (!p->seq_stamps || !process_seq_tracer)
        return true;
    return fail(p, at, "a seq_trace token with time stamps and a tracer process or port as the system seq "
                       "tracer is not supported by model v1");
}

/* seq_print [LABEL] T: seq_trace:print/1, or print/2 with the label first */
static bool seq_print_args(Parser *p, Step *st)
{
    if (!term_arg(p, &st->term, &st->term_col))
        return false;
    if (at_end(p))
        return true;
    st->args = st->term;
    if (st->args->kind != TK_INT || st->args->u.i < 0)
        return fail(p, (size_t)st->term_col - 1, "a label must be a non-negative integer");
    return term_arg(p, &st->term, &st->term_col);
}

/* ms_test ARGS MS: erlang:match_spec_test(ARGS, MS, trace), ARGS a proper list and MS a list of
 * clauses the model runs in the test's dialect (MS-TEST-RESULT) */
static bool ms_test_args(Parser *p, Step *st)
{
    int args_col;
    if (!term_arg(p, &st->args, &args_col))
        return false;
    if (term_list_length(st->args) < 0)
        return fail(p, (size_t)args_col - 1, "the arguments of match_spec_test must be a proper list");
    if (at_end(p))
        return fail(p, p->i, "expected a match spec after the arguments");
    if (!term_arg(p, &st->term, &st->term_col))
        return false;
    size_t at = (size_t)st->term_col - 1;
    MsVerdict v = ms_validate_for(st->term, MS_FOR_TEST);
    if (st->term->kind != TK_CONS || v.check == MS_INVALID)
        return fail(p, at, "%s in match_spec_test (it gives {error, Texts}, whose texts no document fixes) is not "
                           "supported by model v1",
                    st->term->kind != TK_CONS ? "a match spec that is no non-empty list" : "an invalid match spec");
    if (v.check == MS_UNSUPPORTED)
        return fail(p, at, "%s", v.msg);
    if (v.otp26[0])
        return fail(p, at, "%s in match_spec_test (OTP 25 gives {error, Texts}: C-12) is not supported by model v1",
                    v.otp26);
    return true;
}

/* The arguments of a step, its keyword read (kw, at: its first word; a process's step: the verb
 * after the process's name) and st->kind set (cases/README.md "Steps"): a harness's step and a
 * call to the end of the line, a process's other steps up to what parse_actor_step checks. */
static bool step_args(Parser *p, Step *st, const char *kw, size_t at)
{
    switch (st->kind) {
    case ST_TRACE:
        return parse_trace_step(p, st, false) && end_of_statement(p) && process_tracer_allows(p, st, at);
    case ST_SEQ_TRACER:
        p->seq_tracer = true;
        return end_of_statement(p) && process_tracer_allows(p, st, at) && seq_stamps_allowed(p, st, at);
    case ST_TRACER_PORT:
        return tracer_port_args(p, at);
    case ST_KILL_ALL:
        return kill_all_args(p, st, at) && process_tracer_allows(p, st, at);
    case ST_PATTERN:
        return parse_pattern_step(p, st, false) && process_tracer_allows(p, st, at);
    case ST_INFO:
        return parse_info_step(p, st);
    case ST_TRACER_UNLOAD: /* the tracer module purged and deleted (TRACER-UNLOADED) */
    case ST_TRACER_RELOAD: /* or loaded anew (TRACER-RELOADED) */
    case ST_TRACER_RELOAD_BUSY:
        if (p->sc->tracer.kind != TRACER_RECORDER)
            return fail(p, at, "'tracer unload' and 'tracer reload' need the recorder as the tracer");
        return st->kind == ST_TRACER_RELOAD_BUSY ? parse_reload_busy(p, st) : end_of_statement(p);
    case ST_RELATION: /* the harness compares two readings (CALL-COUNTERS-RELATION) */
        return parse_relation_step(p, st);
    case ST_SYSTEM_MONITOR: /* the harness reads, clears or sets the legacy system monitor */
        return parse_system_monitor(p, st);
    case ST_MODULE_UNLOAD: /* a fixture module deleted and purged (CALL-PATTERN-MODULE-DELETED) */
    case ST_MODULE_LOAD:   /* or a new version of it loaded (CALL-RELOAD-NEW-INSTANCE) */
        return parse_module_step(p, st, kw);
    case ST_TRACER_EXIT: /* the tracer state process exits (STATUS-DEAD-STATE) */
        st->actor = kw;
        st->actor_col = st->col;
        return term_arg(p, &st->term, &st->term_col) && end_of_statement(p) && process_tracer_allows(p, st, at);
    case ST_SESSION: /* its keywords are the session operations' (session_op) */
        return false;
    case ST_CALL:
        return parse_call_step(p, st);
    case ST_LOOP: /* its loop calls through erlang:apply/3 (tcs_busy:spin/4) */
        if (!parse_call_step(p, st))
            return false;
        return st->path == CALL_APPLY || fail(p, at, "a busy loop calls through apply/3: another path is not "
                                                      "supported by model v1");
    case ST_IDLE:
        return true;
    case ST_WAIT:
        return wait_args(p, st);
    case ST_PEER: /* a second node, and a new process there */
        return new_name_arg(p, "process", kw, &st->actor, &st->actor_col) && end_of_statement(p);
    case ST_PEER_SEQ_TRACER: /* ... that becomes the peer node's system seq tracer */
        if (p->peer_seq_tracer)
            return fail(p, at, "setting the peer node's system seq tracer twice is not supported by model v1");
        p->peer_seq_tracer = true;
        return new_name_arg(p, "process", kw, &st->actor, &st->actor_col) &&
               end_of_statement(p) && seq_stamps_allowed(p, st, at);
    case ST_SUSPEND: /* erlang:suspend_process(A), or suspend_process(A, Opts) with an option list */
        return proc_arg(p, &st->actor, &st->actor_col) &&
               (at_end(p) || (term_arg(p, &st->term, &st->term_col) && end_of_statement(p)));
    case ST_TIMER: /* erlang:start_timer(MS, A, tcs_timer) */
        return proc_arg(p, &st->actor, &st->actor_col) &&
               int_in_range(p, "the timer's milliseconds", 1, MAX_WAIT_MS, &st->timeout) && end_of_statement(p);
    case ST_RESUME: /* erlang:resume_process(A) */
    case ST_CANCEL_TIMER: /* erlang:cancel_timer/1 of A's timer */
    case ST_STATUS: /* process_info(A, status) */
        return proc_arg(p, &st->actor, &st->actor_col) && end_of_statement(p);
    case ST_SEND:
        return proc_arg(p, &st->other, &st->other_col) && term_arg(p, &st->term, &st->term_col) &&
               (!next_word_is(p, "times") || times_count(p));
    case ST_RECV:
        return recv_args(p, st);
    case ST_SPAWN:
    case ST_SPAWN_LINK:
        return spawn_args(p, st, kw);
    case ST_LINK:
    case ST_UNLINK:
        return entity_arg(p, true, &st->other, &st->other_col);
    case ST_REGISTER:
    case ST_UNREGISTER:
        return register_args(p, st);
    case ST_EXIT:
        return term_arg(p, &st->term, &st->term_col);
    case ST_OPEN_PORT:
        return open_port_args(p, st, kw);
    case ST_PORT_CONTROL:
        return entity_arg(p, false, &st->other, &st->other_col) && port_control_args(p, st);
    case ST_PORT_COMMAND:
    case ST_PORT_SEND:
        return entity_arg(p, false, &st->other, &st->other_col) && binary_arg(p, st);
    case ST_PORT_CLOSE:
        return entity_arg(p, false, &st->other, &st->other_col);
    case ST_GC: {
        const char *w = word(p, &at);
        if (w && strcmp(w, "minor") != 0 && strcmp(w, "major") != 0)
            return fail(p, at, "expected 'minor', 'major' or end of line");
        st->term = term_atom(p->a, w ? w : "major");
        return true;
    }
    case ST_SEQ_TOKEN:
        return seq_token_args(p, st) && seq_stamps_allowed(p, st, at);
    case ST_SEQ_PRINT:
        return seq_print_args(p, st);
    case ST_SEQ_RESET:
        return true;
    case ST_KILL: /* exit(Q, R): an exit signal */
        return proc_arg(p, &st->other, &st->other_col) && term_arg(p, &st->term, &st->term_col);
    case ST_SEND_NAME: /* Name ! T */
        return atom_arg(p, "a registered name", &st->fn, &at) && term_arg(p, &st->term, &st->term_col);
    case ST_MONITOR:      /* erlang:monitor(process, Q) */
    case ST_PROC_SUSPEND: /* erlang:suspend_process(Q) */
    case ST_PROC_RESUME:  /* erlang:resume_process(Q) */
        return proc_arg(p, &st->other, &st->other_col);
    case ST_MS_TEST: /* erlang:match_spec_test(Args, MS, trace) */
        return ms_test_args(p, st);
    case ST_TRAP_EXIT: /* process_flag(trap_exit, Bool) */
        if (!term_arg(p, &st->term, &st->term_col))
            return false;
        if (!term_is_atom(st->term, "true") && !term_is_atom(st->term, "false"))
            return fail(p, (size_t)st->term_col - 1, "the value must be true or false");
        return true;
    case ST_TOGETHER:
    case ST_TOGETHER_END:
        return together_line(p, st, at);
    case ST_PROC_PATTERN:
        return proc_pattern_args(p, st, at);
    }
    return false; /* no kind of step is missing above (-Wswitch) */
}

/* ACTOR VERB ARGS: a step the process actor does. */
static bool parse_actor_step(Parser *p, Step *st, const char *actor, size_t actor_at)
{
    st->actor = actor;
    st->actor_col = (int)actor_at + 1;
    size_t at;
    const char *verb = word(p, &at);
    if (!verb)
        return fail(p, at, "expected a step after the process name");
    if (!process_step(verb, &st->kind))
        return fail(p, at, "unknown step '%s'", verb);
    if (!step_args(p, st, verb, at))
        return false;
    if ((st->kind == ST_LINK || st->kind == ST_UNLINK) && strcmp(st->other, actor) == 0)
        return fail(p, (size_t)st->other_col - 1, "linking a process to itself is not supported by model v1");
    return st->kind == ST_CALL || st->kind == ST_LOOP || end_of_statement(p); /* a call's arguments end it */
}

/* A line that is no step: why. */
static bool no_step(Parser *p, const char *kw, size_t at)
{
    if (statement_word(kw))
        return fail(p, at, "'%s' is not allowed after 'process'", kw);
    for (int k = 0; k < STEP_KINDS; k++) /* the first words of a harness's step, not the rest */
        if (!step_by_process((StepKind)k) && step_keyword((StepKind)k) && begins(step_keyword((StepKind)k), kw)) {
            skip_ws(p);
            return fail(p, p->i, "expected '%s'", step_keyword((StepKind)k));
        }
    size_t vat;
    const char *verb = word(p, &vat);
    StepKind kind;
    if (verb && is_name(kw) && process_step(verb, &kind))
        return fail(p, at, "undeclared process '%s'", kw);
    return fail(p, at, "unknown keyword '%s'", kw);
}

/* The step a line holds into p->st, and how often it is done into p->repeat. */
static bool parse_step(Parser *p, const char *kw, size_t at)
{
    Step *st = p->st;
    memset(st, 0, sizeof *st);
    st->line = p->line;
    st->col = (int)at + 1;
    p->repeat = 1;
    bool ok;
    SessionOp op;
    if (session_op(p, kw, &op)) {
        ok = op == SO_APPLY ? parse_apply_step(p, st) : parse_session_step(p, st, op);
    } else if (harness_step(p, kw, &st->kind)) {
        ok = step_args(p, st, kw, at);
    } else if (is_name(kw) && known(p, kw) && strcmp(kw, "tracer") != 0) {
        if (is_port_name(p, kw))
            return fail(p, at, "'%s' is a port: a step is done by a process", kw);
        ok = parse_actor_step(p, st, kw, at);
    } else {
        return no_step(p, kw, at);
    }
    if (ok && p->block_line && st->kind != ST_TOGETHER && st->kind != ST_TOGETHER_END)
        ok = together_step(p, st, at);
    return ok;
}

/* [state TERM] after `tracer recorder`: the tracer state the harness passes instead of its
 * state process (STATE-ANY-TERM); the example tracer needs a process to send to. */
static bool tracer_state(Parser *p, TracerDecl *t)
{
    size_t save = p->i, at;
    const char *w = word(p, &at);
    if (w && strcmp(w, "match_binaries") == 0) { /* CALL-MATCH-CONTEXT-READ */
        if (t->kind != TRACER_PROCESS)
            return fail(p, at, "only 'tracer process' takes 'match_binaries' (a tracer module's messages go "
                               "to the harness's collector, which reads binaries with BIFs only)");
        t->match_binaries = true;
        return true;
    }
    if (!w || strcmp(w, "state") != 0) {
        p->i = save;
        return true;
    }
    if (t->kind != TRACER_RECORDER)
        return fail(p, at, "only the recorder takes a 'state': the example tracer sends to the process in its state");
    return opaque_term_arg(p, &t->state, NULL);
}

/* --- statements in order -------------------------------------------------------------- */

/* Most runs a case of a race gets (cases/README.md, "Header"): a few, since each is a node of its own. */
enum { MAX_TRIES = 5 };

/* 'tries N': how many runs, each in a node of its own, a release whose prediction says the node may
 * crash gives the case until the crash shows (the driver's; the model's stream does not change). */
static bool parse_tries(Parser *p, size_t at)
{
    if (p->sc->tries > 1)
        return fail(p, at, "'tries' given twice");
    skip_ws(p);
    size_t iat = p->i;
    if (!int_arg(p, "tries", &p->sc->tries))
        return false;
    if (p->sc->tries < 2 || p->sc->tries > MAX_TRIES)
        return fail(p, iat, "tries must be 2 to %d (one run is the default)", MAX_TRIES);
    return end_of_statement(p);
}

static const char *const stage_kw[] = {"case", "rules", "desc", "otp"};

static bool parse_statement(Parser *p)
{
    size_t at;
    const char *kw = word(p, &at);
    Scenario *sc = p->sc;
    if (p->stage < S_FEATURES) {
        if (strcmp(kw, stage_kw[p->stage]) != 0) {
            for (int s = 0; s < 4; s++)
                if (strcmp(kw, stage_kw[s]) == 0)
                    return fail(p, at, "'%s' out of order: expected '%s' here", kw, stage_kw[p->stage]);
            return fail(p, at, "%s '%s': expected '%s' here (header: case, rules, desc, otp)",
                        known(p, kw) || !is_name(kw) ? "unexpected" : "unknown keyword", kw,
                        stage_kw[p->stage]);
        }
        switch (p->stage++) {
        case S_CASE: {
            size_t iat;
            const char *id = word(p, &iat);
            if (!id || !is_name(id))
                return fail(p, iat, "case id must match [a-z][a-zA-Z0-9_]*");
            sc->id = id;
            sc->id_line = p->line;
            sc->id_col = (int)iat + 1;
            return end_of_statement(p);
        }
        case S_RULES:
            return parse_words(p, "rules", is_rule_id, "rule ID", &sc->rules, &sc->nrules);
        case S_DESC:
            return parse_desc(p);
        default: {
            skip_ws(p);
            size_t iat = p->i;
            if (!int_arg(p, "otp", &sc->otp))
                return false;
            if (sc->otp <= 0)
                return fail(p, iat, "otp must be a positive release number");
            return end_of_statement(p);
        }
        }
    }
    if (p->stage == S_FEATURES) {
        if (strcmp(kw, "features") == 0) {
            if (sc->tries > 1)
                return fail(p, at, "'features' out of order: it comes before 'tries'");
            if (!parse_words(p, "features", is_feature, "feature", &sc->features, &sc->nfeatures))
                return false;
            return true;
        }
        if (strcmp(kw, "tries") == 0)
            return parse_tries(p, at);
        if (strcmp(kw, "tracer") != 0)
            return fail(p, at, "%s '%s': expected 'features', 'tries' or 'tracer'",
                        strcmp(kw, "process") == 0 || strcmp(kw, "callbacks") == 0 ||
                                strcmp(kw, "answer") == 0 ? "unexpected" : "unknown keyword", kw);
        size_t tat;
        const char *t = word(p, &tat);
        if (t && strcmp(t, "recorder") == 0)
            sc->tracer.kind = TRACER_RECORDER;
        else if (t && strcmp(t, "erl_msg_tracer") == 0)
            sc->tracer.kind = TRACER_ERL_MSG;
        else if (t && strcmp(t, "process") == 0) /* {tracer, <tracer>}: it gets trace messages */
            sc->tracer.kind = TRACER_PROCESS;
        else
            return fail(p, tat, "tracer must be 'recorder', 'erl_msg_tracer' or 'process'");
        p->stage = S_TRACER_OPTS;
        p->cur = &sc->tracer;
        return tracer_state(p, &sc->tracer) && end_of_statement(p);
    }
    if (p->stage == S_TRACER_OPTS) {
        if (strcmp(kw, "callbacks") == 0 || strcmp(kw, "answer") == 0)
            return parse_tracer_opt(p, kw, at);
        if (strcmp(kw, "session") == 0)
            return parse_session_decl(p);
        if (strcmp(kw, "process") == 0) {
            p->stage = S_STEPS;
            finish_tracer(p);
            return parse_process_decl(p);
        }
        return fail(p, at, "%s '%s': expected 'callbacks', 'answer', 'session' or 'process'",
                    step_word(kw) ? "unexpected" : "unknown keyword", kw); /* a step too early */
    }
    return parse_step(p, kw, at);
}

/* Cuts the line at a '%' that is outside quoted atoms and strings. */
static void strip_comment(char *line)
{
    char q = 0;
    for (char *c = line; *c; c++) {
        if (q) {
            if (*c == '\\' && c[1])
                c++;
            else if (*c == q)
                q = 0;
        } else if (*c == '\'' || *c == '"') {
            q = *c;
        } else if (*c == '%') {
            *c = '\0';
            return;
        }
    }
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
    if (s[0] == 0xE0) lo = 0xA0;
    if (s[0] == 0xED) hi = 0x9F;
    if (s[0] == 0xF0) lo = 0x90;
    if (s[0] == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* A case is UTF-8 text (cases/README.md): checked at the door, so no later stage (the
 * stream, the meta JSON, the driver) ever sees other bytes. One line (number line) at a time:
 * a well-formed sequence never holds a newline. */
static bool valid_utf8(const char *text, size_t n, int line, Err *err)
{
    for (size_t i = 0; i < n;) {
        size_t len = utf8_sequence((const unsigned char *)text + i, n - i);
        if (len == 0) {
            err->line = line;
            err->col = (int)i + 1;
            snprintf(err->msg, sizeof err->msg, "invalid UTF-8 (byte 0x%02X): a case must be UTF-8 text",
                     (unsigned char)text[i]);
            return false;
        }
        i += len;
    }
    return true;
}

/* --- reading a case, a line at a time ------------------------------------------------ */

/* A case being read: its lines come from a file or from a text, and each step is handed out
 * as it is parsed. A streaming reader parses each step into an arena of its own, emptied
 * when the next step is read; a collecting one (scenario_parse, scenario_load) into the
 * case's arena. */
struct ScenarioReader {
    Parser p;
    StrMap words;
    Arena step_arena;  /* a streaming reader's: the memory of the steps kept (scenario_keep_step),
                        * then of the step handed out last */
    ArenaMark kept;    /* where the kept steps' memory ends in step_arena */
    bool collecting;
    FILE *f;           /* the lines come from f, or when NULL from text */
    const char *text;
    const char *path;  /* a file's: its stem must be the case id; NULL for a text */
    char *line;        /* the line being parsed, without its newline */
    size_t line_cap;
    Step step;         /* the step handed out last */
    long long repeats; /* how many more times it is handed out (`times N`) */
};

/* The next line into r->line; false at the end of the text. *nul: the line holds a NUL byte. */
static bool next_line(ScenarioReader *r, size_t *len, bool *nul)
{
    *nul = false;
    if (r->f) {
        ssize_t n = getline(&r->line, &r->line_cap, r->f);
        if (n < 0) /* the end, or a file that cannot be read as one, such as a directory: an empty text */
            return false;
        *len = (size_t)n - (n > 0 && r->line[n - 1] == '\n');
        *nul = memchr(r->line, '\0', *len) != NULL;
    } else {
        if (!*r->text)
            return false;
        const char *nl = strchr(r->text, '\n');
        *len = nl ? (size_t)(nl - r->text) : strlen(r->text);
        if (*len + 1 > r->line_cap) {
            r->line_cap = *len + 1;
            free(r->line);
            r->line = malloc(r->line_cap);
            if (!r->line)
                abort();
        }
        memcpy(r->line, r->text, *len);
        r->text += *len + (nl ? 1 : 0);
    }
    r->line[*len] = '\0';
    r->p.line++;
    return true;
}

static bool nul_byte(Err *err)
{
    err->line = 1;
    err->col = 1;
    snprintf(err->msg, sizeof err->msg, "file contains a NUL byte");
    return false;
}

/* After a problem (err set; utf8_checked: it was invalid UTF-8): the rest of the text read for the
 * problems that come first, as if the whole text had been checked before it was parsed: a NUL
 * byte before everything, invalid UTF-8 before any problem of the parse. False. */
static bool failed(ScenarioReader *r, bool utf8_checked)
{
    size_t len;
    bool nul;
    while (next_line(r, &len, &nul)) {
        if (nul)
            return nul_byte(r->p.err);
        if (!utf8_checked)
            utf8_checked = !valid_utf8(r->line, len, r->p.line, r->p.err);
    }
    return false;
}

/* The next statement (the next line that is not blank) parsed: true with *end set at the end of
 * the text; false with err set at a problem (failed). */
static bool next_statement(ScenarioReader *r, bool *end)
{
    Parser *p = &r->p;
    size_t len;
    bool nul;
    for (;;) {
        if (!next_line(r, &len, &nul)) {
            *end = true;
            return true;
        }
        if (nul)
            return nul_byte(p->err);
        if (!valid_utf8(r->line, len, p->line, p->err))
            return failed(r, true);
        strip_comment(r->line);
        p->s = r->line;
        p->i = 0;
        if (at_end(p))
            continue;
        *end = false;
        return parse_statement(p) || failed(r, false);
    }
}

/* The header's end, or an error at the end of the text: the statement missing there. */
static bool missing_statement(ScenarioReader *r)
{
    static const char *const missing[] = {"case", "rules", "desc", "otp", "tracer", "process", "process"};
    Parser *p = &r->p;
    p->line++;
    p->s = "";
    return fail(p, 0, "missing '%s' statement", missing[p->stage]);
}

/* The case id of a file must equal the file stem. */
static bool id_is_stem(ScenarioReader *r)
{
    const Scenario *sc = r->p.sc;
    Err *err = r->p.err;
    if (!r->path)
        return true;
    const char *base = strrchr(r->path, '/');
    base = base ? base + 1 : r->path;
    size_t stem = strlen(base);
    if (stem > 4 && strcmp(base + stem - 4, ".tcs") == 0)
        stem -= 4;
    if (strlen(sc->id) == stem && strncmp(sc->id, base, stem) == 0)
        return true;
    err->line = sc->id_line;
    err->col = sc->id_col;
    snprintf(err->msg, sizeof err->msg, "case id '%s' must equal the file name stem '%.*s'", sc->id, (int)stem, base);
    return false;
}

/* A reader of the lines of f or text: parses the header into *out (no steps); false with err
 * set at a problem, *reader then NULL. */
static bool reader_open(Arena *a, const char *file, FILE *f, const char *text, bool collecting, Scenario *out,
                        ScenarioReader **reader, Err *err)
{
    memset(out, 0, sizeof *out);
    out->file = file;
    out->tracer.default_answer = ANS_TRACE;
    ScenarioReader *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    r->f = f;
    r->text = text;
    r->path = f ? file : NULL;
    r->collecting = collecting;
    arena_init(&r->step_arena);
    Parser *p = &r->p;
    p->a = p->keep = a;
    p->sc = out;
    p->err = err;
    p->words = &r->words;
    p->st = &r->step;
    bool end = false, ok = true;
    while (ok && !end && p->stage != S_STEPS)
        ok = next_statement(r, &end);
    if (ok && end)
        ok = missing_statement(r);
    if (ok) {
        out->sessions = arena_alloc(a, (p->nsessions + 1) * sizeof(SessionDecl));
        if (p->nsessions)
            memcpy(out->sessions, p->sessions, p->nsessions * sizeof(SessionDecl));
        out->nsessions = p->nsessions;
        *reader = r;
    } else {
        scenario_close(r);
        *reader = NULL;
    }
    return ok;
}

/* path opened for reading, or NULL with err set (and out emptied). */
static FILE *opened(const char *path, Scenario *out, Err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        memset(out, 0, sizeof *out);
        *err = (Err){.line = 0};
        snprintf(err->msg, sizeof err->msg, "cannot read file");
    }
    return f;
}

bool scenario_open(Arena *a, const char *path, Scenario *out, ScenarioReader **reader, Err *err)
{
    FILE *f = opened(path, out, err);
    *reader = NULL;
    return f && reader_open(a, path, f, NULL, false, out, reader, err);
}

ReadResult scenario_next(ScenarioReader *r, const Step **st)
{
    Parser *p = &r->p;
    *st = NULL;
    if (r->repeats > 0) { /* `times N`: the same step again */
        r->repeats--;
        *st = &r->step;
        return READ_STEP;
    }
    if (!r->collecting)
        arena_rewind(&r->step_arena, r->kept);
    p->a = r->collecting ? p->keep : &r->step_arena;
    bool end;
    bool ok = next_statement(r, &end);
    p->a = p->keep;
    if (!ok)
        return READ_ERROR;
    if (end && p->block_line) {
        p->err->line = p->block_line;
        p->err->col = p->block_col;
        snprintf(p->err->msg, sizeof p->err->msg, "together block never closed by 'end'");
        return READ_ERROR;
    }
    if (end)
        return id_is_stem(r) ? READ_END : READ_ERROR;
    r->repeats = p->repeat - 1;
    p->tracer_exited |= r->step.kind == ST_TRACER_EXIT || r->step.kind == ST_KILL_ALL;
    p->stepped = true;
    *st = &r->step;
    return READ_STEP;
}

void scenario_keep_step(ScenarioReader *r) { r->kept = arena_mark(&r->step_arena); }

void scenario_close(ScenarioReader *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    free(r->line);
    arena_free(&r->step_arena);
    free(r);
}

/* The steps of a collecting reader, all of them, into out; closes r. */
static bool read_all(ScenarioReader *r, Scenario *out)
{
    Step *steps = NULL;
    size_t n = 0, cap = 0;
    const Step *st;
    ReadResult got;
    while ((got = scenario_next(r, &st)) == READ_STEP) {
        /* in the case's arena, grown by doubling in place: a case costs what its steps need */
        steps = arena_grow_moving(r->p.keep, steps, n, &cap, sizeof *steps);
        steps[n++] = *st;
    }
    scenario_close(r);
    out->steps = steps;
    out->nsteps = n;
    return got == READ_END;
}

bool scenario_parse(Arena *a, const char *file, const char *text, Scenario *out, Err *err)
{
    ScenarioReader *r;
    return reader_open(a, file, NULL, text, true, out, &r, err) && read_all(r, out);
}

bool scenario_load(Arena *a, const char *path, Scenario *out, Err *err)
{
    FILE *f = opened(path, out, err);
    ScenarioReader *r;
    return f && reader_open(a, path, f, NULL, true, out, &r, err) && read_all(r, out);
}
