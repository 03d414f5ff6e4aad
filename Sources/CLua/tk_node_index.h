/* `__index` of nodes in C: `node.traitCollection`, `node.traitOverrides` and the member
 * table answered without a call into Swift where they can be. */
#ifndef TRAITKIT_CLUA_NODE_INDEX_H
#define TRAITKIT_CLUA_NODE_INDEX_H

#include "tk_calls.h"
#include "tk_box.h"
#include "tk_debug.h"

/* The node userdata's user value that holds its `traitOverrides` proxy once made: nil before,
 * false for a node that has no overrides (a screen; Swift says why). */
#define TK_OVERRIDES_SLOT 5
/* The proxy's user value that holds its node's userdata (1 anchors override values). */
#define TK_PROXY_NODE_SLOT 2
/* How many user values a node userdata has: after the proxy, the two links of the chain
 * that anchors the nodes an owner owns (NodeAnchor). */
#define TK_NODE_SLOTS 7

/* Makes the `traitOverrides` proxy of the node userdata at `node` (absolute), whose
 * TK_OVERRIDES_SLOT is nil: a userdata of kind TK_KIND_OVERRIDES that holds no object, only
 * the node's userdata, and has no finalizer. Keeps it in that slot and leaves it on top. */
static inline void tk_push_new_overrides(lua_State *L, int node) {
    tk_Limits *limits = tk_limits(L);
    tk_Box *box = (tk_Box *)lua_newuserdatauv(L, sizeof *box, 2);
    *box = (tk_Box){ .magic = TK_BOX_MAGIC, .kind = TK_KIND_OVERRIDES,
                     .members = limits->overrides_members, .setters = limits->overrides_setters };
    tk_push_registry_table(L, limits->overrides_metatable);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, node);
    lua_setiuservalue(L, -2, TK_PROXY_NODE_SLOT);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, node, TK_OVERRIDES_SLOT);
}

/* The node's current collection when the binding's fast path can read it: the pointer in
 * the node's slot, which only the update pass changes (the slot pointer is at `slot_offset`
 * in the node, the collection pointer at `collection_offset` in the slot). */
static inline void *tk_node_collection(tk_Limits *limits, tk_Box *box) {
    return *(void **)(*(char **)((char *)box->object + limits->slot_offset) + limits->collection_offset);
}

/* With the userdata of `collection`, the current collection of the node at 1 (whose box is
 * `box`), on top: keeps it in the node's second user value for tk_node_index, left on top.
 * (The userdata keeps the collection alive, so its address cannot be reused meanwhile.) */
static inline void tk_node_keep_collection(lua_State *L, tk_Box *box, void *collection) {
    lua_pushvalue(L, -1);
    if (lua_setiuservalue(L, 1, 2)) box->collection = collection;
}

/* With a node's current collection's userdata on top (from the identity cache): keeps it and
 * returns 1 if it is that collection's, else pops it and returns 0. */
static inline int tk_node_cache_collection(lua_State *L, tk_Box *box, void *collection) {
    tk_Box *found = tk_tobox(L, -1, TK_KIND_COLLECTION);
    if (!found || found->object != collection) {
        lua_pop(L, 1);
        return 0;
    }
    tk_node_keep_collection(L, box, collection);
    return 1;
}

/* How many classes a chain may have (ClassModule.maxChain): the walks end on a chain a
 * script looped with `rawset`. */
#define TK_MAX_CLASS_CHAIN 100

/* With (node, key) at 1 and 2 and the node's fields table at `fields`: pushes the key's
 * value in the class chain of the class the table names and returns 1, or pushes nothing and
 * returns 0 (no class, or no class in the chain has it). Upvalues 5 and 6 of tk_node_index. */
static inline int tk_class_chain_get(lua_State *L, int fields) {
    if (lua_rawgetp(L, fields, lua_touserdata(L, lua_upvalueindex(5))) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    for (int depth = 0; depth < TK_MAX_CLASS_CHAIN; depth++) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) != LUA_TNIL) {
            lua_remove(L, -2);
            return 1;
        }
        lua_pop(L, 1);
        lua_pushvalue(L, lua_upvalueindex(6));
        if (lua_rawget(L, -2) != LUA_TTABLE) break;
        lua_remove(L, -2);
    }
    lua_settop(L, fields);
    return 0;
}

/* `__index` of nodes, answered in C where it can be. `node.traitCollection` is answered from the
 * node's second user value while the collection cached there (`box->collection`) is still the
 * node's current one, and else from the identity cache when the collection has a userdata
 * already (after an update, most nodes share a collection another node's read has brought to
 * Lua); `node.traitOverrides` from TK_OVERRIDES_SLOT, where its first fetch makes the proxy.
 * Any other key is looked up in the node's member table, as the Swift `__index` of other
 * objects (indexObject) does first: a method is returned from here, a property getter (a light
 * userdata) runs in this frame (the `traitCollection` getter makes and caches a collection that
 * has no userdata yet);
 * then the node's per-instance fields, and the class chain of a script's subclass (the class
 * its fields table names, then each `__super`, one raw lookup each: a method a script defined
 * on its class, or a value it gave the class). What is left (an engine class's built-in
 * methods, the error for a stranger) runs the Swift rest of `__index` (upvalue 1,
 * indexNodeFallback) in this frame, which looks at the fields and the chain again (they cannot
 * have changed: nothing ran). Upvalues 2 and 3: "traitCollection", "traitOverrides"; 4: the
 * identity cache of collections; 5: the fields table's key for the class (a light userdata);
 * 6: "__super". */
TK_HOT static inline int tk_node_index(lua_State *L) {
    tk_Box *box = tk_tobox(L, 1, TK_KIND_NODE);
    if (!box || !box->object) return tk_trampoline(L);  /* Swift says what is wrong */
    tk_Limits *limits = tk_limits(L);
    /* Short strings are interned, and upvalues 2 and 3 keep these two alive: a key is one of
     * them exactly when it is the same object. lua_topointer gives a string's object, and
     * another key's object, address or NULL, never theirs. */
    const void *key = lua_topointer(L, 2);
    if (key == limits->overrides_key) {
        switch (lua_getiuservalue(L, 1, TK_OVERRIDES_SLOT)) {
        case LUA_TUSERDATA:
            return 1;
        case LUA_TNIL:
            if (!limits->overrides_members) break;
            lua_settop(L, 2);
            tk_push_new_overrides(L, 1);
            return 1;
        }
        lua_settop(L, 2);
    } else if (key == limits->collection_key && limits->collection_offset) {
        void *current = tk_node_collection(limits, box);
        if (current && box->collection == current && lua_getiuservalue(L, 1, 2) == LUA_TUSERDATA) return 1;
        lua_settop(L, 2);
        if (current && lua_type(L, lua_upvalueindex(4)) == LUA_TTABLE
            && lua_rawgetp(L, lua_upvalueindex(4), current) == LUA_TUSERDATA
            && tk_node_cache_collection(L, box, current))
            return 1;
        lua_settop(L, 2);
    }
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, box->members) != LUA_TTABLE) {
        lua_settop(L, 2);
        return tk_trampoline(L);
    }
    lua_pushvalue(L, 2);
    switch (lua_rawget(L, -2)) {
    case LUA_TNIL:
        break;
    case LUA_TLIGHTUSERDATA: {
        tk_SwiftFunction getter = (tk_SwiftFunction)lua_touserdata(L, -1);
        lua_settop(L, 2);
        return tk_call_swift(L, getter);
    }
    default:
        return 1;
    }
    lua_settop(L, 2);
    if (lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {  /* per-instance fields, at 3 */
        lua_pushvalue(L, 2);
        if (lua_rawget(L, 3) != LUA_TNIL) return 1;
        lua_settop(L, 3);
        if (lua_type(L, 2) == LUA_TSTRING && tk_class_chain_get(L, 3)) return 1;
    }
    lua_settop(L, 2);
    return tk_trampoline(L);
}

/* Pushes the node `__index`: `f` its Swift rest, `cache_ref` the identity cache of
 * collections, `class_key` the key under which a node's fields table holds its class. */
static inline void tk_pushnodeindex(lua_State *L, tk_SwiftFunction f, int cache_ref, const void *class_key) {
    tk_Limits *limits = tk_limits(L);
    lua_pushlightuserdata(L, (void *)f);
    lua_pushliteral(L, "traitCollection");
    limits->collection_key = lua_topointer(L, -1);
    lua_pushliteral(L, "traitOverrides");
    limits->overrides_key = lua_topointer(L, -1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, cache_ref);
    lua_pushlightuserdata(L, (void *)class_key);
    lua_pushliteral(L, "__super");
    lua_pushcclosure(L, tk_node_index, 6);
    tk_mark_function(L);
}

/* `__newindex` of nodes, in C where it can be: a property's setter runs in this frame; a
 * string key that names no member and no lifecycle method is stored in the node's fields
 * table once it has one. The rest goes to the Swift `__newindex` (upvalue 1,
 * newIndexObject), which does all of it again: a member without a setter (an error that says
 * what it is), a lifecycle method (checked, and declared to the engine, which starts calling
 * it), a key that is not a string, the first field (which makes the table), a stranger.
 * Upvalue 2: the set of lifecycle method names. */
static inline int tk_node_newindex(lua_State *L) {
    lua_settop(L, 3);
    tk_Box *box = tk_tobox(L, 1, TK_KIND_NODE);
    if (!box || !box->object || lua_type(L, 2) != LUA_TSTRING) return tk_trampoline(L);
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, box->setters) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, 4) == LUA_TLIGHTUSERDATA) {
            tk_SwiftFunction setter = (tk_SwiftFunction)lua_touserdata(L, -1);
            lua_settop(L, 3);
            return tk_call_swift(L, setter);
        }
    }
    lua_settop(L, 3);
    int member = LUA_TNIL;
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, box->members) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        member = lua_rawget(L, 4);
    }
    lua_settop(L, 3);
    if (member != LUA_TNIL) return tk_trampoline(L);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL || lua_getiuservalue(L, 1, 1) != LUA_TTABLE) {
        lua_settop(L, 3);
        return tk_trampoline(L);
    }
    lua_replace(L, 4);    /* 4: the fields table */
    lua_insert(L, 2);     /* 1 node, 2 fields table, 3 key, 4 value */
    lua_rawset(L, 2);
    return 0;
}

/* Pushes the node `__newindex` with `f` its Swift counterpart; the set of lifecycle method
 * names on top is popped into it. */
static inline void tk_pushnodenewindex(lua_State *L, tk_SwiftFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_insert(L, -2);
    lua_pushcclosure(L, tk_node_newindex, 2);
    tk_mark_function(L);
}

#endif
