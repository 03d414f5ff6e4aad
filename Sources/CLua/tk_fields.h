/* Constructor tables (`tk.View{ name = ..., backgroundColor = ... }`): the name read first,
 * then every other field applied through its property's setter, as an assignment would. */
#ifndef TRAITKIT_CLUA_FIELDS_H
#define TRAITKIT_CLUA_FIELDS_H

#include "tk_calls.h"
#include "tk_pairs.h"

/* tk_apply_fields's arguments: the object at 1; at 2 and 3, where each property setter finds
 * them as in `__newindex`, the key and value of the field being applied; then these. */
#define TK_FIELDS_TABLE 4        /* the constructor table */
#define TK_FIELDS_SETTERS 5      /* the setters table, or a subclass's __newindex */
#define TK_FIELDS_SKIP_SCREEN 6  /* whether `screen` made the object */

/* Whether the value at i is the string `key`, all of it (a Lua string may hold a zero byte);
 * never converts a number key, as lua_tostring would. */
static inline int tk_is_key(lua_State *L, int i, const char *key) {
    size_t n;
    if (lua_type(L, i) != LUA_TSTRING) return 0;
    const char *s = lua_tolstring(L, i, &n);
    return n == strlen(key) && memcmp(s, key, n) == 0;
}

/* For the pair key, value on top of a constructor table's traversal (tk_apply_fields): pushes
 * what assigns it, the key's setter from the setters table or the subclass's __newindex,
 * and returns 1; returns 0, pushing nothing, for a field that made the object (`name`, a
 * scene's `screen`), and -1 for a key that names no setter. */
static inline int tk_push_field_setter(lua_State *L, int by_setter, int skip_screen) {
    if (tk_is_key(L, -2, "name") || (skip_screen && tk_is_key(L, -2, "screen"))) return 0;
    if (!by_setter) {
        lua_pushvalue(L, TK_FIELDS_SETTERS);
        return 1;
    }
    lua_pushvalue(L, -2);
    if (lua_rawget(L, TK_FIELDS_SETTERS) == LUA_TLIGHTUSERDATA) return 1;
    lua_pop(L, 1);
    return -1;
}

/* object[key] = value for the key, value and setter at t, t + 1, t + 2, as the script's
 * assignment would make it. A property setter runs in this frame, with the key and value
 * where `__newindex` would give them (and the room a C function gets on entry): no call
 * through Lua per field. A subclass's __newindex is called. */
static inline void tk_assign_field(lua_State *L, int t, int by_setter) {
    if (!by_setter) {
        lua_pushvalue(L, t + 2);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, t);
        lua_pushvalue(L, t + 1);
        lua_call(L, 3, 0);
        return;
    }
    int top = lua_gettop(L);
    lua_copy(L, t, 2);
    lua_copy(L, t + 1, 3);
    luaL_checkstack(L, LUA_MINSTACK, NULL);
    tk_call_swift(L, (tk_SwiftFunction)lua_touserdata(L, t + 2));
    lua_settop(L, top);
}

/* tk_apply_fields for a table with more pairs than the stack holds: through the list of them
 * tk_pairs_list_k makes, every key looked up before any field is assigned, as on the stack. */
static inline int tk_apply_listed_fields(lua_State *L, int by_setter, int skip_screen) {
    lua_settop(L, TK_FIELDS_SKIP_SCREEN);
    lua_pushcfunction(L, tk_pairs_list_k);
    lua_pushvalue(L, TK_FIELDS_TABLE);
    lua_call(L, 1, 1);  /* key, value, key, value, ... */
    int list = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, list);
    for (int assigning = 0; assigning <= 1; assigning++) {
        for (lua_Integer i = 1; i < n; i += 2) {
            lua_rawgeti(L, list, i);
            lua_rawgeti(L, list, i + 1);
            int found = tk_push_field_setter(L, by_setter, skip_screen);
            if (found < 0) { lua_pop(L, 1); return 1; }
            if (found > 0 && assigning) tk_assign_field(L, list + 1, by_setter);
            lua_settop(L, list);
        }
    }
    return 0;
}

/* Applies the fields of a constructor table to the object made from it, each as the
 * script's assignment would (the arguments are above). Every key is looked up before any
 * setter runs, so a typo fails before the object changes: a key that names no setter is
 * returned, for the caller's message. The pairs are read first: a setter may run a scripted
 * method that changes the table. Constructors call it in one protected call; a setter's
 * error ends it as an assignment's would. */
static inline int tk_apply_fields(lua_State *L) {
    int by_setter = lua_type(L, TK_FIELDS_SETTERS) == LUA_TTABLE;
    int skip_screen = lua_toboolean(L, TK_FIELDS_SKIP_SCREEN);
    lua_settop(L, TK_FIELDS_SKIP_SCREEN);
    lua_pushnil(L);
    while (lua_next(L, TK_FIELDS_TABLE)) {
        int found = tk_push_field_setter(L, by_setter, skip_screen);
        if (found < 0) { lua_pop(L, 1); return 1; }
        if (found == 0) { lua_pop(L, 1); continue; }
        if (!lua_checkstack(L, 8)) return tk_apply_listed_fields(L, by_setter, skip_screen);
        lua_pushvalue(L, -3);
    }
    int end = lua_gettop(L);
    for (int t = TK_FIELDS_SKIP_SCREEN + 1; t < end; t += 3) tk_assign_field(L, t, by_setter);
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
