/* The debug library in a state the binding serves: what it may not do to the binding.
 *
 * `debug.setupvalue`: the binding's C functions keep in their upvalues what their C code
 * trusts without a check: a Swift function's address (every trampoline), the tables the fast
 * paths index. A script that replaced one (`debug.setupvalue(tk.update, 1, nil)`) made the
 * next call jump to nowhere. Their upvalues cannot change (the binding's closures are the set
 * tk_mark_function keeps); any other function's change as the library's own `setupvalue`
 * changes them.
 *
 * `debug.getregistry`: the binding keeps its tables in registry slots (`luaL_ref`), and the
 * raw accesses that follow trust each to be a table; one a script replaced
 * (`debug.getregistry()[n] = 42`) made them read memory Lua does not own. Those slots are
 * pushed by tk_push_registry_table, which puts a new empty table where it finds anything else:
 * what the slot held is lost, as the script asked, and the process goes on.
 *
 * `debug.sethook`: refused while a limit is set (below).
 *
 * The rest of the library can still reach into C frames (`debug.setlocal` on a C function's
 * stack slots), as in any Lua: `--sandbox` leaves it out. */
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

/* Pushes the table in registry slot `ref`, first making it a new empty one if a script put
 * anything else there (above). Called with Swift frames on top, where no allocation fails. */
static inline void tk_push_registry_table(lua_State *L, int ref) {
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, LUA_REGISTRYINDEX, ref);
}

/* Pushes the global `debug` and returns whether it is a table (a sandboxed state has no debug
 * library). Raw accesses only: a host's globals may have an `__index` that raises, and Swift
 * calls the guards below. */
static inline int tk_push_debug_library(lua_State *L) {
    lua_pushglobaltable(L);
    lua_pushliteral(L, "debug");
    lua_rawget(L, -2);
    lua_remove(L, -2);
    return lua_type(L, -1) == LUA_TTABLE;
}

/* Puts tk_setupvalue in place of `debug.setupvalue` when the state has the debug library. */
static inline void tk_guard_setupvalue(lua_State *L) {
    int top = lua_gettop(L);
    if (tk_push_debug_library(L)) {
        lua_pushliteral(L, "setupvalue");
        if (lua_rawget(L, -2) == LUA_TFUNCTION) {
            lua_pushliteral(L, "setupvalue");
            lua_pushcfunction(L, tk_setupvalue);
            lua_rawset(L, -4);
        }
    }
    lua_settop(L, top);
}

/* `debug.sethook` while `--timeout` or `--memory-limit` is set: the limits are checked by a
 * count hook (tk_hook), and a thread has one hook, so a script that set its own (a profiler)
 * ran past its time limit. It is refused then, with a message; the library's own is kept in
 * the registry and put back when no limit is left. */
#define TK_SETHOOK_KEY "traitkit.sethook"

static inline int tk_sethook_refused(lua_State *L) {
    return luaL_error(L, "debug.sethook is not available with --timeout or --memory-limit "
                         "(the limits are checked by a hook of their own)");
}

/* Puts tk_sethook_refused in place of `debug.sethook` (`on`) or the library's back. Called
 * from Swift before a limit is set: nothing here can fail for memory then. */
static inline void tk_guard_sethook(lua_State *L, int on) {
    int top = lua_gettop(L);
    if (tk_push_debug_library(L)) {
        int debug = lua_gettop(L);
        int saved = lua_getfield(L, LUA_REGISTRYINDEX, TK_SETHOOK_KEY) == LUA_TFUNCTION;
        if (on && !saved) {
            lua_pushliteral(L, "sethook");
            lua_rawget(L, debug);
            lua_setfield(L, LUA_REGISTRYINDEX, TK_SETHOOK_KEY);
            lua_pushliteral(L, "sethook");
            lua_pushcfunction(L, tk_sethook_refused);
            lua_rawset(L, debug);
        } else if (!on && saved) {
            lua_pushliteral(L, "sethook");
            lua_pushvalue(L, debug + 1);
            lua_rawset(L, debug);
            lua_pushnil(L);
            lua_setfield(L, LUA_REGISTRYINDEX, TK_SETHOOK_KEY);
        }
    }
    lua_settop(L, top);
}

#endif
