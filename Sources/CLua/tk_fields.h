/* Constructor tables (`tk.View{ name = ..., backgroundColor = ... }`): the name read first,
 * then every other field applied through its property's setter, as an assignment would. */
#ifndef TRAITKIT_CLUA_FIELDS_H
#define TRAITKIT_CLUA_FIELDS_H

#include "tk_calls.h"
#include "tk_pairs.h"

/* The upvalues of a class's constructor, tk_construct (made by tk_pushconstructor). */
#define TK_CTOR_MAKE 1           /* the Swift function that makes the object */
/* 2 and 3 are the Swift function's own (the engine class it makes, whether a subclass). */
#define TK_CTOR_FIELD_ERROR 4    /* the Swift function that words a setter's error as the field's */
#define TK_CTOR_UNKNOWN 5        /* the Swift function that words the error for a key no setter takes */
#define TK_CTOR_NAME 6           /* the string "name" */
#define TK_CTOR_SCREEN 7         /* the string "screen" */
#define TK_CTOR_UPVALUES 7
/* What the Swift function returns when fields other than the name remain to be applied: the
 * three values it leaves above the class and the table (tk_construct). */
#define TK_CTOR_FIELDS 3

/* tk_apply_fields's stack, in the constructor's frame: the object at 1; at 2 and 3, where
 * each property setter finds them as in `__newindex`, the key and value of the field being
 * applied; then these. */
#define TK_FIELDS_TABLE 4        /* the constructor table */
#define TK_FIELDS_SETTERS 5      /* the setters table, or a subclass's `__newindex` (a Swift function) */
#define TK_FIELDS_SKIP_SCREEN 6  /* whether `screen` made the object */

/* Whether the value at i is the key the constructor's upvalue `key` holds (TK_CTOR_NAME,
 * TK_CTOR_SCREEN): short strings are interned, so this is one pointer compare, and a
 * number never equals a string. Only in the constructor's frame. */
static inline int tk_is_key(lua_State *L, int i, int key) {
    return lua_rawequal(L, i, lua_upvalueindex(key));
}

/* For the pair key, value on top of a constructor table's traversal (tk_apply_fields): pushes
 * the Swift function that assigns it, the key's setter from the setters table or the
 * subclass's `__newindex`, and returns 1; returns 0, pushing nothing, for a field that made
 * the object (`name`, a scene's `screen`), and -1 for a key that names no setter. */
static inline int tk_push_field_setter(lua_State *L, int by_setter, int skip_screen) {
    if (tk_is_key(L, -2, TK_CTOR_NAME) || (skip_screen && tk_is_key(L, -2, TK_CTOR_SCREEN))) return 0;
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
 * assignment would make it: the setter (or a subclass's `__newindex`) runs in this frame,
 * with the key and value where `__newindex` would give them (and the room a C function gets
 * on entry), no call through Lua per field. An error it words itself ("bad argument #3 to
 * 'tintColor'") is worded as the field's ("bad field 'tintColor' in View{...}"); a script's
 * error that passes through it stays the script's. */
static inline void tk_assign_field(lua_State *L, int t) {
    int top = lua_gettop(L);
    lua_copy(L, t, 2);
    lua_copy(L, t + 1, 3);
    luaL_checkstack(L, LUA_MINSTACK, NULL);
    int n = tk_run_swift(L, (tk_SwiftFunction)lua_touserdata(L, t + 2));
    if (n == TK_RAISE_WHERE)
        n = tk_run_swift(L, (tk_SwiftFunction)lua_touserdata(L, lua_upvalueindex(TK_CTOR_FIELD_ERROR)));
    tk_swift_result(L, n);
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
            if (found > 0 && assigning) tk_assign_field(L, list + 1);
            lua_settop(L, list);
        }
    }
    return 0;
}

/* Applies the fields of a constructor table to the object made from it, each as the
 * script's assignment would (the stack is above). Every key is looked up before any setter
 * runs, so a typo fails before the object changes: a key that names no setter is left on
 * top and 1 returned, for the caller's message. The pairs are read first: a setter may run a
 * scripted method that changes the table. */
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
    for (int t = TK_FIELDS_SKIP_SCREEN + 1; t < end; t += 3) tk_assign_field(L, t);
    return 0;
}

/* With a constructor's properties at `t` (a table, or nil): pushes its `name` field (nil when
 * it has none) and returns 1 if it has other fields too, else 0. `{ name = ... }` alone, the
 * most common table, is looked at with one pass of lua_next and no key pushed. Only in the
 * constructor's frame (the Swift function it runs). */
static inline int tk_constructor_name(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_pushnil(L);  /* the name so far */
    if (lua_type(L, t) != LUA_TTABLE) return 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (!tk_is_key(L, -2, TK_CTOR_NAME)) {  /* another field: read the name directly */
            lua_pop(L, 3);
            lua_pushvalue(L, lua_upvalueindex(TK_CTOR_NAME));
            lua_rawget(L, t);
            return 1;
        }
        lua_replace(L, -3);  /* the value is the name */
    }
    return 0;
}

/* `Class{ ... }`, the `__call` of class tables. The Swift function (upvalue TK_CTOR_MAKE)
 * makes the object and returns it; for a table with fields other than the name it leaves
 * exactly the class, the table, the object, the setters to apply them with and whether
 * `screen` made it, and returns TK_CTOR_FIELDS; the fields are then applied here, in this
 * frame, once the Swift frames are gone: a setter's error is raised from C, so no protected
 * call is needed to keep it from crossing them. */
static inline int tk_construct(lua_State *L) {
    int n = tk_call_swift(L, (tk_SwiftFunction)lua_touserdata(L, lua_upvalueindex(TK_CTOR_MAKE)));
    if (n != TK_CTOR_FIELDS) return n;
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 5);
    lua_copy(L, 2, TK_FIELDS_TABLE);
    lua_copy(L, 3, 1);                          /* the object */
    lua_copy(L, 6, TK_FIELDS_SETTERS);
    lua_copy(L, 7, TK_FIELDS_SKIP_SCREEN);
    lua_settop(L, TK_FIELDS_SKIP_SCREEN);       /* 2 and 3 get each field's key and value */
    if (tk_apply_fields(L))                     /* the key no setter takes, on top */
        return tk_call_swift(L, (tk_SwiftFunction)lua_touserdata(L, lua_upvalueindex(TK_CTOR_UNKNOWN)));
    lua_settop(L, 1);
    return 1;
}

/* Pushes a class's constructor: `make` with the two values on top (popped) as its upvalues
 * 2 and 3, and the functions that word its errors. */
static inline void tk_pushconstructor(lua_State *L, tk_SwiftFunction make, tk_SwiftFunction field_error,
                                      tk_SwiftFunction unknown) {
    lua_pushlightuserdata(L, (void *)make);
    lua_rotate(L, -3, 1);
    lua_pushlightuserdata(L, (void *)field_error);
    lua_pushlightuserdata(L, (void *)unknown);
    lua_pushliteral(L, "name");
    lua_pushliteral(L, "screen");
    lua_pushcclosure(L, tk_construct, TK_CTOR_UPVALUES);
    tk_mark_function(L);
}

#endif
