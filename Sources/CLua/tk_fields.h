/* Constructor tables (`tk.View{ name = ..., backgroundColor = ... }`): the name read first,
 * then every other field applied through its property's setter, as an assignment would. */
#ifndef TRAITKIT_CLUA_FIELDS_H
#define TRAITKIT_CLUA_FIELDS_H

#include "tk_calls.h"
#include "tk_pairs.h"

/* A Swift property setter called as __newindex calls it: the setter (a light userdata) at 1,
 * then object, key and value (tk_assign_field). */
static inline int tk_call_setter(lua_State *L) {
    tk_SwiftFunction f = (tk_SwiftFunction)lua_touserdata(L, 1);
    lua_remove(L, 1);
    return tk_call_swift(L, f);
}

/* Whether the value at i is the string `key`, all of it (a Lua string may hold a zero byte);
 * never converts a number key, as lua_tostring would. */
static inline int tk_is_key(lua_State *L, int i, const char *key) {
    size_t n;
    if (lua_type(L, i) != LUA_TSTRING) return 0;
    const char *s = lua_tolstring(L, i, &n);
    return n == strlen(key) && memcmp(s, key, n) == 0;
}

/* For the pair key, value on top of a constructor table's traversal (tk_apply_fields): pushes
 * what assigns it, the key's setter from the setters table at 3 or the function at 3 (a
 * subclass's __newindex), and returns 1; returns 0, pushing nothing, for a field that made the
 * object (`name`, a scene's `screen`), and -1 for a key that names no setter. */
static inline int tk_push_field_setter(lua_State *L, int by_setter, int skip_screen) {
    if (tk_is_key(L, -2, "name") || (skip_screen && tk_is_key(L, -2, "screen"))) return 0;
    if (!by_setter) {
        lua_pushvalue(L, 3);
        return 1;
    }
    lua_pushvalue(L, -2);
    if (lua_rawget(L, 3) == LUA_TLIGHTUSERDATA) return 1;
    lua_pop(L, 1);
    return -1;
}

/* object[key] = value for the key, value and setter at t, t + 1, t + 2, as the script's
 * assignment would make it. */
static inline void tk_assign_field(lua_State *L, int t, int by_setter) {
    if (by_setter) lua_pushcfunction(L, tk_call_setter);
    lua_pushvalue(L, t + 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, t);
    lua_pushvalue(L, t + 1);
    lua_call(L, by_setter ? 4 : 3, 0);
}

/* tk_apply_fields for a table with more pairs than the stack holds: through the list of them
 * tk_pairs_list_k makes, every key looked up before any field is assigned, as on the stack. */
static inline int tk_apply_listed_fields(lua_State *L, int by_setter, int skip_screen) {
    lua_settop(L, 4);
    lua_pushcfunction(L, tk_pairs_list_k);
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);  /* 5: key, value, key, value, ... */
    lua_Integer n = (lua_Integer)lua_rawlen(L, 5);
    for (int assigning = 0; assigning <= 1; assigning++) {
        for (lua_Integer i = 1; i < n; i += 2) {
            lua_rawgeti(L, 5, i);
            lua_rawgeti(L, 5, i + 1);
            int found = tk_push_field_setter(L, by_setter, skip_screen);
            if (found < 0) { lua_pop(L, 1); return 1; }
            if (found > 0 && assigning) tk_assign_field(L, 6, by_setter);
            lua_settop(L, 5);
        }
    }
    return 0;
}

/* Applies the fields of a constructor table to the object made from it, each as the
 * script's assignment would: object (1), table (2), the setters table or __newindex (3),
 * whether `screen` made the object (4). Every key is looked up before any setter runs, so
 * a typo fails before the object changes: a key that names no setter is returned, for the
 * caller's message. The pairs are read first: a setter may run a scripted method that
 * changes the table. Constructors call it in one protected call, so a field costs a
 * lua_call, not a lua_pcall; a setter's error ends it as an assignment's would. */
static inline int tk_apply_fields(lua_State *L) {
    int by_setter = lua_type(L, 3) == LUA_TTABLE, skip_screen = lua_toboolean(L, 4);
    lua_settop(L, 4);
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        int found = tk_push_field_setter(L, by_setter, skip_screen);
        if (found < 0) { lua_pop(L, 1); return 1; }
        if (found == 0) { lua_pop(L, 1); continue; }
        if (!lua_checkstack(L, 8)) return tk_apply_listed_fields(L, by_setter, skip_screen);
        lua_pushvalue(L, -3);
    }
    int end = lua_gettop(L);
    for (int t = 5; t < end; t += 3) tk_assign_field(L, t, by_setter);
    return 0;
}

/* With a constructor's properties at `t` (a table, or nil): pushes its `name` field (nil when
 * it has none) and returns 1 if it has other fields too, else 0. `{ name = ... }` alone, the
 * most common table, is looked at with one pass of lua_next and no key pushed. */
static inline int tk_constructor_name(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_pushnil(L);  /* the name so far */
    if (lua_type(L, t) != LUA_TTABLE) return 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (!tk_is_key(L, -2, "name")) {  /* another field: read the name directly */
            lua_pop(L, 3);
            lua_pushliteral(L, "name");
            lua_rawget(L, t);
            return 1;
        }
        lua_replace(L, -3);  /* the value is the name */
    }
    return 0;
}

#endif
