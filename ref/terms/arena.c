/* arena.c - bump allocation in linked blocks. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
    ArenaBlock *next;
    size_t used, cap;
    max_align_t data[];
};

enum { BLOCK_MIN = 16384 };

void arena_init(Arena *a) { a->head = NULL; }

void *arena_alloc(Arena *a, size_t n)
{
    size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    if (n == 0)
        n = align;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > BLOCK_MIN ? n : BLOCK_MIN;
        ArenaBlock *b = malloc(sizeof *b + cap);
        if (!b) {
            fputs("tcsref: out of memory\n", stderr);
            abort();
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *arena_grow(Arena *a, void *arr, size_t len, size_t *cap, size_t elem)
{
    if (len < *cap)
        return arr;
    size_t grown = *cap ? 2 * *cap : 8;
    void *p = arena_alloc(a, grown * elem);
    if (len)
        memcpy(p, arr, len * elem);
    *cap = grown;
    return p;
}

void arena_free(Arena *a)
{
    while (a->head) {
        ArenaBlock *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}
