/* Where a Lua table keeps an array entry, for prefetching (TraitKit's WalkTrace.swift).
 *
 * Firing a Lua handler reads its entry in the handler table (HandlerTable.swift); on a large
 * tree that read is a cache miss the walk's trace cannot name, because Lua's C API never says
 * where a value lives. This answers it by reading the table as Lua 5.4 lays it out (lobject.h):
 * the array pointer at byte 16 of the Table, 16-byte TValues from index 1. The answer is only
 * ever prefetched, never read. Lua's own Table type is private to the library, so other
 * versions get no answer (TK_ARRAY_SLOTS is 0) and the walk goes without; a test checks the
 * answers against the installed library. */
#ifndef TRAITKIT_CLUA_ARRAY_SLOTS_H
#define TRAITKIT_CLUA_ARRAY_SLOTS_H

#include <lua5.4/lua.h>
#include <stdint.h>
#include <string.h>

#if LUA_VERSION_NUM == 504 && UINTPTR_MAX == UINT64_MAX
#define TK_ARRAY_SLOTS 1
#else
#define TK_ARRAY_SLOTS 0
#endif

/* Where index `i` of the array part of `table` (lua_topointer of a table) would be; past the
 * array part, an address nothing is at (harmless to prefetch). NULL on other Lua versions. */
static inline const void *tk_array_slot(const void *table, lua_Integer i) {
#if TK_ARRAY_SLOTS
    if (table == NULL || i < 1) return NULL;
    const unsigned char *array;
    memcpy(&array, (const unsigned char *)table + 16, sizeof array);
    return array + 16 * (size_t)(i - 1);
#else
    (void)table; (void)i;
    return NULL;
#endif
}

#endif
