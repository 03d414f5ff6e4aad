/* A table's pairs read in one protected traversal, for Swift code that runs per pair. */
#ifndef TRAITKIT_CLUA_PAIRS_H
#define TRAITKIT_CLUA_PAIRS_H

#include <lua5.4/lua.h>

/* The pairs of the table at index 1 as a list {k1, v1, k2, v2, ...}. */
static inline int tk_pairs_list_k(lua_State *L) {
    lua_Integer n = 0;
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_rawseti(L, 2, n + 2);
        lua_pushvalue(L, -1);
        lua_rawseti(L, 2, n + 1);
        n += 2;
    }
    return 1;
}

/* Pushes the pairs of the table at `t` as a list, read in protected mode: lua_next raises
 * "invalid key to 'next'" when the table changes under it (code the caller runs per pair, a
 * finalizer an allocation runs), and a raise must never cross the Swift frames that asked.
 * Returns 0, or -1 with nothing pushed. */
static inline int tk_pairs_list(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_pushcfunction(L, tk_pairs_list_k);
    lua_pushvalue(L, t);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) { lua_pop(L, 1); return -1; }
    return 0;
}

#endif
