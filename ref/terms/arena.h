/* arena.h - one bump allocator per scenario; everything is freed at once. */
#ifndef TCS_ARENA_H
#define TCS_ARENA_H
#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;
typedef struct Arena { ArenaBlock *head; } Arena;

/* Guarantees: an empty arena that owns no memory yet. */
void arena_init(Arena *a);
/* Guarantees: zeroed, max-aligned memory living until arena_free; aborts on OOM. */
void *arena_alloc(Arena *a, size_t n);
/* Guarantees: a NUL-terminated copy of s[0..n) owned by the arena. */
char *arena_strndup(Arena *a, const char *s, size_t n);
/* Guarantees: an array of elem-sized items with room for more than len: arr itself if *cap > len,
 * else a copy of arr[0..len) in a new block at least twice as large (the rest zeroed), *cap
 * updated. The old block stays in the arena: growing by doubling costs at most twice the size. */
/* Guarantees: as arena_grow, but a large array (a block of its own) is reallocated and its old
 * block freed: a long array costs its final size; no pointer into arr may outlive the call. */
void *arena_grow_moving(Arena *a, void *arr, size_t len, size_t *cap, size_t elem);
void *arena_grow(Arena *a, void *arr, size_t len, size_t *cap, size_t elem);
/* Guarantees: the arena is empty again (its memory no longer valid) and keeps one block for what
 * comes next: an arena of temporaries emptied often costs no allocation each time. */
void arena_reset(Arena *a);
/* Where an arena stands: what it allocated up to a point (arena_mark). */
typedef struct ArenaMark { ArenaBlock *block; size_t used; } ArenaMark;
/* Guarantees: the mark of what a allocated so far (arena_rewind goes back to it). */
ArenaMark arena_mark(const Arena *a);
/* Guarantees: what a allocated since mark (taken of a, which has not grown an array in place with
 * arena_grow_moving since) is freed, its memory no longer valid; what came before stays. */
void arena_rewind(Arena *a, ArenaMark mark);
/* Guarantees: every block of the arena is released; the arena is empty again. */
void arena_free(Arena *a);

#endif
