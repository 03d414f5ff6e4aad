/* `debug.setupvalue` in a state the binding serves. The binding's C functions keep in their
 * upvalues what their C code trusts without a check: a Swift function's address (every
 * trampoline), the tables the fast paths index. A script that replaced one
 * (`debug.setupvalue(tk.update, 1, nil)`) made the next call jump to nowhere. Their upvalues
 * cannot change (the binding's closures are the set tk_mark_function keeps); any other
 * function's change as the library's own `setupvalue` changes them. The rest of the debug
 * library can still reach into C frames (`debug.setlocal` on a C function's stack slots), as in
 * any Lua: `--sandbox` leaves it out. */
#ifndef TRAITKIT_CLUA_DEBUG_H
#define TRAITKIT_CLUA_DEBUG_H

#include <lua5.4/lauxlib.h>
#include "tk_calls.h"

/* `debug.setupvalue(f, n, value)`, as lua5.4's (the same checks, messages and results), refusing
 * the binding's own functions. */
static inline int tk_setupvalue(lua_State *L) {
    luaL_checkany(L, 3);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 3);
    if (lua_iscfunction(L, 1) && lua_getfield(L, LUA_REGISTRYINDEX, TK_FUNCTIONS_KEY) == LUA_TTABLE) {
        lua_pushvalue(L, 1);
        luaL_argcheck(L, lua_rawget(L, -2) == LUA_TNIL, 1, "the upvalues of a TraitKit function cannot change");
    }
    lua_settop(L, 3);
    const char *name = lua_setupvalue(L, 1, (int)n);
    if (name == NULL) return 0;
    lua_pushstring(L, name);
    return 1;
}

/* Puts tk_setupvalue in place of `debug.setupvalue` when the state has the debug library
 * (a sandboxed state has none). Raw accesses only: a host's globals may have an `__index`
 * that raises, and Swift calls this. */
static inline void tk_guard_setupvalue(lua_State *L) {
    int top = lua_gettop(L);
    lua_pushglobaltable(L);
    lua_pushliteral(L, "debug");
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_pushliteral(L, "setupvalue");
        if (lua_rawget(L, -2) == LUA_TFUNCTION) {
            lua_pushliteral(L, "setupvalue");
            lua_pushcfunction(L, tk_setupvalue);
            lua_rawset(L, -4);
        }
    }
    lua_settop(L, top);
}

#endif
