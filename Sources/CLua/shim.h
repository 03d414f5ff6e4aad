/* The C side of the Lua boundary, one header per concept:
 *
 *   tk_limits.h            the allocator and count hook behind --memory-limit and --timeout
 *   tk_warn.h              Lua's warnings, as the stand-alone lua gives them
 *   tk_calls.h             Swift functions as Lua C functions, errors raised from C (§7)
 *   tk_box.h               the block of every engine object's userdata
 *   tk_node_index.h        `__index` of nodes in C
 *   tk_collection_index.h  `__index` of trait collections in C
 *   tk_pairs.h             a table's pairs read in protected mode
 *   tk_fields.h            constructor tables applied through the setters
 *   tk_debug.h             what the debug library may not do to the binding
 *
 * and here, wrappers for Lua's function-like macros, which Swift cannot call. */
#ifndef TRAITKIT_CLUA_SHIM_H
#define TRAITKIT_CLUA_SHIM_H

#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include "tk_limits.h"
#include "tk_calls.h"
#include "tk_box.h"
#include "tk_node_index.h"
#include "tk_collection_index.h"
#include "tk_pairs.h"
#include "tk_fields.h"
#include "tk_debug.h"

/* A full collection (lua_gc is variadic, which Swift cannot call). */
static inline void tk_fullgc(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }

/* Macro wrappers. */
static inline int tk_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void tk_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int tk_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void tk_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void tk_newtable(lua_State *L) { lua_newtable(L); }
static inline void tk_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void tk_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void tk_replace(lua_State *L, int i) { lua_replace(L, i); }
static inline const char *tk_tolstring(lua_State *L, int i, size_t *len) { return lua_tolstring(L, i, len); }
static inline lua_Number tk_tonumber(lua_State *L, int i, int *isnum) { return lua_tonumberx(L, i, isnum); }
static inline lua_Integer tk_tointeger(lua_State *L, int i, int *isnum) { return lua_tointegerx(L, i, isnum); }
static inline int tk_isnoneornil(lua_State *L, int i) { return lua_type(L, i) <= 0; }
static inline void *tk_newuserdata(lua_State *L, size_t size, int nuv) { return lua_newuserdatauv(L, size, nuv); }
static inline int tk_getuservalue(lua_State *L, int i) { return lua_getiuservalue(L, i, 1); }
static inline int tk_setuservalue(lua_State *L, int i) { return lua_setiuservalue(L, i, 1); }
static inline int tk_loadbuffer(lua_State *L, const char *s, size_t n, const char *name, const char *mode) {
    return luaL_loadbufferx(L, s, n, name, mode);
}

#endif
