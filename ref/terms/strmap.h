/* strmap.h - a map from names to indexes, in an arena: a name looked up in constant time, so a
 * case with many processes costs time in proportion to its size. */
#ifndef TCS_STRMAP_H
#define TCS_STRMAP_H
#include <stddef.h>

#include "arena.h"

typedef struct StrMapSlot { const char *key; int value; } StrMapSlot;
/* Zeroed: empty. Open addressing; the slots grow by doubling at half full. */
typedef struct StrMap { StrMapSlot *slots; size_t cap, len; } StrMap;

/* Guarantees: the value key was first added with, or -1 if it was never added. */
int strmap_get(const StrMap *map, const char *key);
/* Guarantees: the key as it was added that equals key, or NULL if it was never added. */
const char *strmap_key(const StrMap *map, const char *key);
/* Guarantees: key maps to value (value >= 0) unless it already maps to one, which stays; key
 * is kept, not copied, and must live as long as the map. */
void strmap_add(StrMap *map, Arena *a, const char *key, int value);

#endif
