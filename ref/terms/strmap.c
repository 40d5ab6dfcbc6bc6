/* strmap.c - open addressing with linear probing, FNV-1a hashes. */
#include "strmap.h"

#include <stdint.h>
#include <string.h>

static size_t hash(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

/* The slot of key: where it is, or the empty slot where it would go. cap is a power of two. */
static StrMapSlot *slot_of(StrMapSlot *slots, size_t cap, const char *key)
{
    size_t i = hash(key) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key) != 0)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

int strmap_get(const StrMap *map, const char *key)
{
    if (!map->cap)
        return -1;
    const StrMapSlot *s = slot_of(map->slots, map->cap, key);
    return s->key ? s->value : -1;
}

const char *strmap_key(const StrMap *map, const char *key)
{
    return map->cap ? slot_of(map->slots, map->cap, key)->key : NULL;
}

void strmap_add(StrMap *map, Arena *a, const char *key, int value)
{
    if (2 * (map->len + 1) > map->cap) { /* rehash into twice the slots; the old ones stay in the arena */
        size_t cap = map->cap ? 2 * map->cap : 16;
        StrMapSlot *slots = arena_alloc(a, cap * sizeof *slots);
        for (size_t i = 0; i < map->cap; i++)
            if (map->slots[i].key)
                *slot_of(slots, cap, map->slots[i].key) = map->slots[i];
        map->slots = slots;
        map->cap = cap;
    }
    StrMapSlot *s = slot_of(map->slots, map->cap, key);
    if (s->key)
        return;
    s->key = key;
    s->value = value;
    map->len++;
}
