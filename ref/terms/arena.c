/* arena.c - bump allocation in linked blocks. */
#include "arena.h"

#include <stdbool.h>
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

/* The link that points to the block whose data is arr alone (arr's own block: an array larger than
 * BLOCK_MIN), or NULL. */
static ArenaBlock **own_block(Arena *a, const void *arr, size_t size)
{
    for (ArenaBlock **link = &a->head; *link; link = &(*link)->next)
        if ((const void *)(*link)->data == arr)
            return (*link)->used == size && size > BLOCK_MIN ? link : NULL;
    return NULL;
}

/* arena_grow, or arena_grow_moving when moving. */
static void *grow(Arena *a, void *arr, size_t len, size_t *cap, size_t elem, bool moving)
{
    if (len < *cap)
        return arr;
    size_t grown = *cap ? 2 * *cap : 8;
    size_t align = sizeof(max_align_t), size = (*cap * elem + align - 1) / align * align;
    ArenaBlock **link = moving && arr ? own_block(a, arr, size) : NULL;
    if (link) { /* a large array is reallocated, not copied: its old size is not kept */
        size_t bytes = (grown * elem + align - 1) / align * align;
        ArenaBlock *b = realloc(*link, sizeof *b + bytes);
        if (!b) {
            fputs("tcsref: out of memory\n", stderr);
            abort();
        }
        memset((char *)b->data + b->used, 0, bytes - b->used);
        b->used = b->cap = bytes;
        *link = b;
        *cap = grown;
        return b->data;
    }
    void *p = arena_alloc(a, grown * elem);
    if (len)
        memcpy(p, arr, len * elem);
    *cap = grown;
    return p;
}

void *arena_grow(Arena *a, void *arr, size_t len, size_t *cap, size_t elem)
{
    return grow(a, arr, len, cap, elem, false);
}

void *arena_grow_moving(Arena *a, void *arr, size_t len, size_t *cap, size_t elem)
{
    return grow(a, arr, len, cap, elem, true);
}

void arena_reset(Arena *a)
{
    if (!a->head)
        return;
    ArenaBlock *kept = a->head;
    a->head = kept->next;
    arena_free(a);
    kept->next = NULL;
    kept->used = 0;
    a->head = kept;
}

ArenaMark arena_mark(const Arena *a) { return (ArenaMark){a->head, a->head ? a->head->used : 0}; }

void arena_rewind(Arena *a, ArenaMark mark)
{
    while (a->head != mark.block) {
        ArenaBlock *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    if (a->head)
        a->head->used = mark.used;
}

void arena_free(Arena *a)
{
    while (a->head) {
        ArenaBlock *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}
