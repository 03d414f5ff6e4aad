/* Where a Lua table keeps a light userdata key, for prefetching (TraitKit's WalkTrace.swift).
 *
 * Firing a Lua handler starts by finding the node's userdata in the identity cache, a table
 * keyed by the node's address; on a large tree the hash slot it lands on is a cache miss the
 * walk's trace cannot name, because Lua's C API never says where a key lives. This answers it
 * by reading the table as Lua 5.4 lays it out (lobject.h, ltable.c): the node array pointer at
 * byte 24 of the Table and its log2 size at byte 11; a light userdata key's main position is
 * its address's low 32 bits modulo the node count minus one made odd; colliding keys chain
 * from there by the int offset at byte 12 of a 24-byte node, whose key type sits at byte 9
 * and key at byte 16. The answers are only ever prefetched. Lua's own Table and Node types
 * are private to the library, so other versions get no answer (TK_IDENTITY_SLOTS is 0) and
 * the walk goes without; a test checks the answers against the installed library. */
#ifndef TRAITKIT_CLUA_IDENTITY_SLOTS_H
#define TRAITKIT_CLUA_IDENTITY_SLOTS_H

#include <lua5.4/lua.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#if LUA_VERSION_NUM == 504 && UINTPTR_MAX == UINT64_MAX
#define TK_IDENTITY_SLOTS 1
#else
#define TK_IDENTITY_SLOTS 0
#endif

/* The slots of light userdata key `p` in `table` (lua_topointer of a table; it never moves):
 * its main position, and the node on that chain holding it (the same node when it sits
 * there; NULL when absent, or past the first 8 nodes of the chain). NULLs on other Lua
 * versions. */
static inline void tk_identity_slots(const void *table, const void *p, const void **main, const void **found) {
    *main = NULL;
    *found = NULL;
#if TK_IDENTITY_SLOTS
    if (table == NULL) return;
    const unsigned char *t = (const unsigned char *)table;
    const unsigned char *nodes;
    memcpy(&nodes, t + 24, sizeof nodes);
    unsigned size = 1u << t[11];
    const unsigned char *node = nodes + 24 * (size_t)((unsigned)((uintptr_t)p & UINT_MAX) % ((size - 1) | 1));
    *main = node;
    for (int step = 0; step < 8; step++) {
        const void *key;
        int next;
        memcpy(&key, node + 16, sizeof key);
        if (node[9] == LUA_TLIGHTUSERDATA && key == p) { *found = node; return; }
        memcpy(&next, node + 12, sizeof next);
        if (next == 0) return;
        node += 24 * (ptrdiff_t)next;
    }
#else
    (void)table; (void)p;
#endif
}

#endif
