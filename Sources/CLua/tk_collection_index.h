/* `__index` of trait collections in C: the reads a collection answered before, kept on it
 * (collections never change), and promotion to a metatable of its own. */
#ifndef TRAITKIT_CLUA_COLLECTION_INDEX_H
#define TRAITKIT_CLUA_COLLECTION_INDEX_H

#include "tk_calls.h"
#include "tk_box.h"

/* `__index` of trait collections. Collections never change, so the binding keeps what it has
 * read by name or by trait object and answers a repeated `tc.Name` (or `tc[Trait]`, the WWDC23
 * samples' form) here, in C. The last read is kept inline, in the collection userdata's user
 * values TK_LAST_KEY and TK_LAST_VALUE: most collections are read for one trait, and a table of
 * their own would cost more than the reads it saves. Others also keep each value read in their
 * first user value, the memo (collections have no fields of their own). After
 * TK_PROMOTE_AFTER reads it promotes the collection: it gets a metatable of its own, a copy of
 * the shared one whose `__index` is the memo itself, so from then on `tc.Name` is one table
 * lookup in the interpreter, with no call at all (misses fall through the memo's metatable to
 * Swift, `tk_memo_miss`).
 *
 * Reads must reach the engine while it records them for automatic trait tracking (R8), and a
 * table lookup cannot be observed: so nothing is answered here or promoted while
 * `tracking_reads` is set, and before Lua code runs under tracking the binding demotes every
 * promoted collection back to the shared metatable (`tk_demote_collections`). Promoted
 * collections are listed in a weak-keyed set, so the list pins nothing.
 *
 * Upvalues: 1 the Swift `__index` (for the trampoline), 2 the shared metatable, 3 the set of
 * promoted collections, 4 the memo's metatable. Anything else runs the Swift `__index` in
 * this same frame, as the trampoline (so an error still names the script's line). */
#define TK_MEMO_SELF ((void *)0x544b01)   /* memo[SELF]: the collection's userdata */
#define TK_MEMO_META ((void *)0x544b02)   /* memo[META]: the collection's own metatable */
#define TK_LAST_KEY 2                     /* collection user values: the last key read, */
#define TK_LAST_VALUE 3                   /* and its value */
#define TK_COLLECTION_SLOTS 3
/* Promotion costs a metatable of the collection's own (a table and its copy of the shared
 * one): it pays for a collection read again and again, not for one read a few times (a
 * configuration script reads most collections once or twice). */
#define TK_PROMOTE_AFTER 16

/* With the collection's memo at `memo`: gives the collection at `ud` a metatable of its own
 * whose `__index` is the memo (made and kept in the memo the first time). */
static inline void tk_promote_collection(lua_State *L, int ud, int memo) {
    if (lua_rawgetp(L, memo, TK_MEMO_META) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 8);
        lua_pushnil(L);
        while (lua_next(L, lua_upvalueindex(2))) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -4);
        }
        lua_pushliteral(L, "__index");
        lua_pushvalue(L, memo);
        lua_rawset(L, -3);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, memo, TK_MEMO_META);
        lua_pushvalue(L, ud);
        lua_rawsetp(L, memo, TK_MEMO_SELF);
        lua_pushvalue(L, lua_upvalueindex(4));
        lua_setmetatable(L, memo);
    }
    lua_setmetatable(L, ud);
    lua_pushvalue(L, ud);
    lua_pushboolean(L, 1);
    lua_rawset(L, lua_upvalueindex(3));
}

/* With (collection, key, value) at 1 to 3, a read the last-read slots answered: promotes the
 * collection, entering the value in its memo (made here if it has none). */
static inline void tk_promote_last_read(lua_State *L) {
    if (lua_getiuservalue(L, 1, 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 4);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, 1, 1);
    }
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, 4);
    tk_promote_collection(L, 1, 4);
    lua_settop(L, 3);
}

TK_HOT static inline int tk_collection_index(lua_State *L) {
    /* Exactly (self, key) from here on: the debug library can call this with any arguments,
     * and what is read below lands at index 3 (the last key, then the answer) and 4 (the
     * memo). Only a collection's user values are its reads: another object's (a node's
     * fields) must not be answered from or promoted. */
    lua_settop(L, 2);
    int key = lua_type(L, 2);
    tk_Box *box;
    /* A collection whose finalizer ran (by hand, through the debug library) is refused by Swift. */
    if (!tk_limits(L)->tracking_reads && (key == LUA_TSTRING || key == LUA_TUSERDATA)
        && (box = tk_tobox(L, 1, TK_KIND_COLLECTION)) && box->object) {
        int found = 0;
        lua_getiuservalue(L, 1, TK_LAST_KEY);
        if (lua_rawequal(L, 2, 3)) {
            lua_getiuservalue(L, 1, TK_LAST_VALUE);
            lua_replace(L, 3);
            found = 1;
        } else if (lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {
            lua_pushvalue(L, 2);
            if (lua_rawget(L, 4) != LUA_TNIL) {
                lua_replace(L, 3);
                found = 1;
            }
        }
        if (found) {
            lua_settop(L, 3);
            if (++box->handler >= TK_PROMOTE_AFTER) tk_promote_last_read(L);
            return 1;
        }
    }
    lua_settop(L, 2);
    return tk_trampoline(L);
}

/* `__index` of a promoted collection's memo: a name it does not hold (a method, a trait not
 * read yet, a trait object, a misspelling) goes to the Swift `__index` with the collection,
 * not the memo, as `self`. Reached through the debug library, `self` may be anything: only a
 * table is looked into, and the Swift `__index` refuses whatever is not an engine object.
 * Upvalue 1: the Swift `__index`. */
static inline int tk_memo_miss(lua_State *L) {
    lua_settop(L, 2);
    if (lua_type(L, 1) == LUA_TTABLE) {
        lua_rawgetp(L, 1, TK_MEMO_SELF);
        lua_replace(L, 1);
    }
    return tk_trampoline(L);
}

/* Makes the `__index` of the shared collection metatable (on top, otherwise complete) and
 * sets it; pushes the set of promoted collections, for `tk_demote_collections`. */
static inline void tk_setcollectionindex(lua_State *L, tk_SwiftFunction f) {
    int mt = lua_gettop(L);
    lua_createtable(L, 0, 0);                  /* the set, weak-keyed; left on top */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushliteral(L, "__index");
    lua_pushlightuserdata(L, (void *)f);
    lua_pushvalue(L, mt);
    lua_pushvalue(L, mt + 1);
    lua_createtable(L, 0, 1);                  /* the memo's metatable */
    lua_pushliteral(L, "__index");
    lua_pushlightuserdata(L, (void *)f);
    lua_pushcclosure(L, tk_memo_miss, 1);
    tk_mark_function(L);
    lua_rawset(L, -3);
    lua_pushcclosure(L, tk_collection_index, 4);
    tk_mark_function(L);
    lua_rawset(L, mt);
}

/* Gives every promoted collection the shared metatable `mt` back and empties `set`, so
 * each read reaches `tk_collection_index` (and, while recording, Swift). Never raises:
 * no allocation, fields only cleared. */
static inline void tk_demote_collections(lua_State *L, int set, int mt) {
    set = lua_absindex(L, set);
    mt = lua_absindex(L, mt);
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        lua_pushvalue(L, mt);
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, set);
    }
}

#endif
