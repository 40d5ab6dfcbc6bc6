/* term_print.c - canonical printing (CONFORMANCE.md §1 "Terms") and plan printing. */
#include "bigint.h"
#include "term.h"

#include <string.h>

static const char *const reserved[] = {
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor",
    "case", "catch", "cond", "div", "else", "end", "fun", "if", "let", "maybe",
    "not", "of", "or", "orelse", "receive", "rem", "try", "when", "xor",
};

bool atom_is_bare(const char *name)
{
    if (!(name[0] >= 'a' && name[0] <= 'z'))
        return false;
    for (const char *p = name + 1; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '@'))
            return false;
    }
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (reserved[i][0] == name[0] && strcmp(name, reserved[i]) == 0)
            return false;
    return true;
}

void term_print_atom(Buf *out, const char *name)
{
    if (atom_is_bare(name)) {
        buf_puts(out, name);
        return;
    }
    buf_puts(out, "'");
    for (const char *p = name; *p; p++) {
        if (*p == '\\' || *p == '\'')
            buf_puts(out, "\\");
        buf_putn(out, p, 1);
    }
    buf_puts(out, "'");
}

/* A list's last run of TERM_LONG equal elements or more, as lists:duplicate(N,T) (PROTOCOLS.md
 * section 6 "Terms"; the runner makes the plan's {'$tcs_duplicate', N, T}), the elements before
 * it, if any, printed as a list with it as its tail; false, printing nothing, for another term. */
static bool print_duplicate(Buf *out, const Term *t, PrintStyle style)
{
    size_t n;
    const Term *run = term_duplicate_run(t, &n);
    if (!run)
        return false;
    bool prefix = run != t;
    if (prefix) {
        buf_puts(out, "[");
        for (; t != run; t = t->u.cons.tail) {
            term_print(out, t->u.cons.head, style);
            buf_puts(out, t->u.cons.tail == run ? "|" : style == PRINT_PLAN ? ", " : ",");
        }
    }
    buf_printf(out, style == PRINT_PLAN ? "{'$tcs_duplicate', %zu, " : "lists:duplicate(%zu,", n);
    term_print(out, run->u.cons.head, style);
    buf_puts(out, style == PRINT_PLAN ? "}" : ")");
    if (prefix)
        buf_puts(out, "]");
    return true;
}

/* A long binary of one byte, as binary:copy(<<B>>,N) (the plan's {'$tcs_binary_copy', B, N}). */
static bool print_bin_copy(Buf *out, const Term *t, PrintStyle style)
{
    unsigned char byte;
    size_t n = term_bin_copy_length(t, &byte);
    if (!n)
        return false;
    buf_printf(out, style == PRINT_PLAN ? "{'$tcs_binary_copy', %u, %zu}" : "binary:copy(<<%u>>,%zu)",
               (unsigned)byte, n);
    return true;
}

void term_print(Buf *out, const Term *t, PrintStyle style)
{
    const char *sep = style == PRINT_PLAN ? ", " : ",";
    switch (t->kind) {
    case TK_INT:
    case TK_BIGINT:
        bigint_print(out, t);
        return;
    case TK_ATOM:
        term_print_atom(out, t->u.name);
        return;
    case TK_PLACEHOLDER:
        buf_puts(out, t->u.name);
        return;
    case TK_REF: /* made afresh by the live harness; the stream prints every ref as _Ref */
        if (style == PRINT_PLAN)
            buf_puts(out, term_is_atomics(t) ? "{'$tcs_atomics'}" : "{'$tcs_ref'}");
        else
            buf_puts(out, "_Ref");
        return;
    case TK_FUN: /* PROTOCOLS.md section 6: a fun the case wrote prints as written */
        buf_puts(out, style == PRINT_PLAN ? "{'$tcs_fun', " : "fun()->");
        term_print(out, t->u.fun_body, style);
        buf_puts(out, style == PRINT_PLAN ? "}" : " end");
        return;
    case TK_PORT: /* a port named in a session info step: the runner resolves it like a pid */
    case TK_PID:
        if (term_is_external(t)) { /* made by the runner (PROTOCOLS.md section 6) */
            const char *kind = t->kind == TK_PID ? "pid" : "port";
            buf_printf(out, style == PRINT_PLAN ? "{'$tcs_external', %s}" : "<ext:%s>", kind);
        } else if (t->kind == TK_PORT && style != PRINT_PLAN) {
            buf_printf(out, "<port:%s>", t->u.name);
        } else if (style == PRINT_PLAN) {
            buf_puts(out, "{'$tcs_pid', ");
            term_print_atom(out, t->u.name);
            buf_puts(out, "}");
        } else {
            buf_printf(out, "<%s>", t->u.name);
        }
        return;
    case TK_TUPLE:
        buf_puts(out, "{");
        for (size_t i = 0; i < t->u.tuple.n; i++) {
            if (i)
                buf_puts(out, sep);
            term_print(out, t->u.tuple.el[i], style);
        }
        buf_puts(out, "}");
        return;
    case TK_MAP:
        buf_puts(out, "#{");
        for (size_t i = 0; i < t->u.map.n; i++) {
            if (i)
                buf_puts(out, sep);
            term_print(out, t->u.map.key[i], style);
            buf_puts(out, style == PRINT_PLAN ? " => " : "=>");
            term_print(out, t->u.map.val[i], style);
        }
        buf_puts(out, "}");
        return;
    case TK_NIL:
        buf_puts(out, "[]");
        return;
    case TK_CONS:
        if (print_duplicate(out, t, style))
            return;
        buf_puts(out, "[");
        for (;;) {
            term_print(out, t->u.cons.head, style);
            t = t->u.cons.tail;
            if (t->kind == TK_NIL)
                break;
            if (t->kind != TK_CONS) {
                buf_puts(out, "|");
                term_print(out, t, style);
                break;
            }
            buf_puts(out, sep);
        }
        buf_puts(out, "]");
        return;
    case TK_BIN:
        if (print_bin_copy(out, t, style))
            return;
        buf_puts(out, "<<");
        for (size_t i = 0; i < t->u.bin.n; i++)
            buf_printf(out, "%s%u", i ? sep : "", (unsigned)t->u.bin.bytes[i]);
        buf_puts(out, ">>");
        return;
    }
}
