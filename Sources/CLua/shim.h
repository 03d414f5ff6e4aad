/* The C side of the Lua boundary: wrappers for Lua's function-like macros (Swift cannot call
 * macros), the trampoline that turns a Swift error code into lua_error, and the allocator
 * and hook that enforce --memory-limit and --timeout.
 *
 * The rule (DESIGN.md §7): no Lua error ever unwinds through a Swift frame. Swift functions
 * called from Lua return a result count, or a negative code with the message on the stack,
 * and tk_trampoline raises it from C. While Swift frames are on the stack the allocator never
 * fails (it notes an overrun instead), so the raw API calls Swift makes cannot raise either;
 * the trampoline reports the overrun once control is back in C. */
#ifndef TRAITKIT_CLUA_SHIM_H
#define TRAITKIT_CLUA_SHIM_H

#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A Swift function called from Lua: returns the number of results, TK_RAISE_WHERE to raise
 * the message on top prefixed with the caller's position, or TK_RAISE to raise it as is. */
typedef int (*tk_SwiftFunction)(lua_State *L);
#define TK_RAISE_WHERE (-1)
#define TK_RAISE (-2)
/* TK_RAISE_PASS: a script's error passes through a binding call unchanged (the value
 * tk_msghandler kept); the message on top is its full traceback, for an uncaught end. */
#define TK_RAISE_PASS (-3)
#define TK_ERROR_KEY "traitkit.error"
#define TK_PASSED_KEY "traitkit.passed"
#define TK_TRACE_KEY "traitkit.passedtrace"

/* Limits shared by the allocator and the hook; lives as long as the state. */
typedef struct tk_Limits {
    size_t used;           /* bytes Lua holds now */
    size_t limit;          /* 0: no limit */
    int swift_depth;       /* > 0 while Swift frames are on top: allocations must not fail */
    int exceeded;          /* an allocation went over the limit while swift_depth > 0 */
    int memory_error;      /* the last error was the memory limit */
    double deadline;       /* CLOCK_MONOTONIC seconds; 0: none */
    double timeout;        /* the --timeout value, for the message */
    int ended;             /* a limit ended the run: 1 time, 2 memory. Sticky until the next
                              run, so a script that catches the error with pcall still ends */
    lua_State *main;       /* the main thread, whose hook an allocation over the limit arms */
    int tracking_reads;    /* the engine records trait reads (R8): tk_collection_index must not skip it */
    int slot_offset;       /* TraitEnvironment.collectionPointerOffsets: the slot in the node, */
    int collection_offset; /* the collection in the slot; 0: no node fast path */
    int kept_error;        /* the registry holds an error value kept for passing through */
    void *runtime;         /* the Swift LuaRuntime, unretained (LuaRuntime.unretained) */
    const void *collection_key; /* "traitCollection" and "traitOverrides" as this state interned */
    const void *overrides_key;  /* them (tk_pushnodeindex), for tk_node_index to compare keys with */
    int overrides_metatable;    /* registry refs every traitOverrides proxy is made with */
    int overrides_members;      /* (tk_push_new_overrides); 0 until the proxies' members exist */
    int overrides_setters;
    size_t allocations;    /* blocks Lua allocated (new ones, not resizes), for traitkit bench */
} tk_Limits;

static inline double tk_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void tk_hook(lua_State *L, lua_Debug *ar);

/* Ends the run over the memory limit: the main thread's next instruction raises (tk_hook).
 * Setting a hook is safe at any point, as lua.c does from a signal handler. */
static inline void tk_end_for_memory(tk_Limits *limits) {
    limits->memory_error = 1;
    limits->ended = 2;
    if (limits->main) lua_sethook(limits->main, tk_hook, LUA_MASKCOUNT, 1);
}

static inline void *tk_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    tk_Limits *limits = (tk_Limits *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        limits->used -= old;
        free(ptr);
        return NULL;
    }
    if (limits->limit && nsize > old && limits->used - old + nsize > limits->limit) {
        if (limits->swift_depth == 0) { tk_end_for_memory(limits); return NULL; }
        limits->exceeded = 1;
    }
    void *p = realloc(ptr, nsize);
    if (p) limits->used = limits->used - old + nsize;
    limits->allocations += (ptr == NULL);
    return p;
}

/* lua.c's allocator: a state's while nothing asks for counting (no --memory-limit, no
 * allocation figures), so a script pays nothing for limits it did not set. */
static inline void *tk_plain_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud; (void)osize;
    if (nsize == 0) { free(ptr); return NULL; }
    return realloc(ptr, nsize);
}

/* Switches the state between tk_plain_alloc and the counting tk_alloc. Both use realloc and
 * free, so blocks move between them freely; counting starts from what Lua holds now. */
static inline void tk_setcounting(lua_State *L, tk_Limits *limits, int on) {
    void *ud;
    lua_Alloc current = lua_getallocf(L, &ud);
    if (on && current == tk_plain_alloc) {
        limits->used = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB);
        lua_setallocf(L, tk_alloc, limits);
    } else if (!on && current == tk_alloc) {
        lua_setallocf(L, tk_plain_alloc, NULL);
    }
}

#ifndef TK_LUA_MODULE
/* The state's limits, in every thread's extra space (Lua copies the main thread's into each
 * new thread): read at every call between Lua and Swift, so a plain load, not an API call. */
static inline tk_Limits *tk_limits(lua_State *L) {
    return *(tk_Limits **)lua_getextraspace(L);
}
#else
/* Built as a C module for another program's state (Scripts/build-lua-module): the extra space
 * is that program's, and threads made before `require "traitkit"` copied whatever it held, so
 * the limits are kept in the registry instead. The key is interned already (tk_attach set it),
 * so the lookup allocates nothing and cannot raise. */
static inline tk_Limits *tk_limits(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, "traitkit.limits");
    tk_Limits *limits = (tk_Limits *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return limits;
}
#endif

/* Takes over a state another program made (`require "traitkit"` from lua5.4): its allocator
 * becomes tk_alloc (which calls realloc and free, as lua.c's does, so blocks move between the
 * two freely), counting from what Lua holds now, and the registry keeps `limits`. Swift frames
 * are on top until a call, so nothing here can fail for memory. */
static inline void tk_attach(lua_State *L, tk_Limits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->swift_depth = 1;
    limits->used = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    limits->main = lua_tothread(L, -1);
    lua_pop(L, 1);
    lua_setallocf(L, tk_alloc, limits);
    lua_pushlightuserdata(L, limits);
    lua_setfield(L, LUA_REGISTRYINDEX, "traitkit.limits");
}

/* A new state for `limits`, allocating without counting until tk_setcounting asks for it;
 * Swift frames are on top until a call. Its collector is generational, as lua.c sets it: a
 * script's nodes live long, and an incremental cycle traces all of them again while the
 * script configures them (a script may still choose `collectgarbage("incremental")`). */
static inline lua_State *tk_newstate(tk_Limits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->swift_depth = 1;
    limits->main = lua_newstate(tk_plain_alloc, NULL);
    if (limits->main) {
        *(tk_Limits **)lua_getextraspace(limits->main) = limits;
        lua_gc(limits->main, LUA_GCGEN, 0, 0);
    }
    return limits->main;
}

/* Runs the Swift function `f` as the body of the running C function: counts the Swift frame,
 * and raises what `f` asked to raise once `f` has returned (see the top of this file). */
static inline int tk_call_swift(lua_State *L, tk_SwiftFunction f) {
    tk_Limits *limits = tk_limits(L);
    int saved = limits->swift_depth;
    limits->swift_depth = saved + 1;
    int n = f(L);
    limits->swift_depth = saved;
    if (limits->exceeded && saved == 0) {
        limits->exceeded = 0;
        /* As Lua does before failing an allocation: collect, and go on if that was enough. */
        lua_gc(L, LUA_GCCOLLECT);
        if (limits->used <= limits->limit) goto done;
        tk_end_for_memory(limits);
        lua_pushliteral(L, "not enough memory");  /* may itself fail: LUA_ERRMEM, as wanted */
        return lua_error(L);
    }
done:
    if (n >= 0) return n;
    if (n == TK_RAISE_PASS) {
        lua_getfield(L, LUA_REGISTRYINDEX, TK_ERROR_KEY);
        lua_pushnil(L);
        lua_setfield(L, LUA_REGISTRYINDEX, TK_ERROR_KEY);
        lua_pushvalue(L, -1);  /* remembered with its traceback, for tk_msghandler */
        lua_setfield(L, LUA_REGISTRYINDEX, TK_PASSED_KEY);
        lua_pushvalue(L, -2);
        lua_setfield(L, LUA_REGISTRYINDEX, TK_TRACE_KEY);
        return lua_error(L);
    }
    if (n == TK_RAISE_WHERE) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* The metamethods every trait read runs start on a cache line of their own. Left where the
 * linker puts them (the module does not align functions), a change anywhere in this header
 * moved `node.traitCollection.T` by 5 % from build to build. */
#define TK_HOT __attribute__((aligned(64)))

/* A Swift function as a C function: upvalue 1 is the Swift function. */
static inline int tk_trampoline(lua_State *L) {
    return tk_call_swift(L, (tk_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1)));
}

/* The block of every engine object's full userdata (LuaObject.Box in Swift). */
#define TK_BOX_MAGIC 0x54524149544B4954ULL  /* "TRAITKIT" */
typedef struct {
    uint64_t magic;
    void *object;      /* a retained Swift object; NULL once released */
    int32_t kind;      /* LuaObject.Kind; 0: a node */
    int32_t members;   /* registry refs of the member tables */
    int32_t setters;
    void *collection;  /* nodes: the collection whose userdata user value 2 holds (tk_node_index) */
    int64_t handler;   /* nodes: the id of the registration whose entry user value 3 holds itself;
                          0: user value 3 is nil or a table of entries by id (HandlerSlot).
                          Collections: reads (tk_collection_index, CollectionModule.remember).
                          Registrations: the id of their entry (RegistrationModule) */
} tk_Box;

/* LuaObject.Kind values the C fast paths check for (a test checks them against Swift's). */
#define TK_KIND_NODE 0
#define TK_KIND_COLLECTION 1
#define TK_KIND_OVERRIDES 6

/* The box of the value at `i` if it is an engine object's userdata, else NULL: its size and
 * magic are checked before anything else is read (LuaObject.box in Swift). */
static inline tk_Box *tk_anybox(lua_State *L, int i) {
    tk_Box *box = (tk_Box *)lua_touserdata(L, i);
    return box && lua_rawlen(L, i) == sizeof(tk_Box) && box->magic == TK_BOX_MAGIC ? box : NULL;
}

/* The box of the value at `i` if it is an engine object's userdata of `kind`, else NULL: the
 * fast paths are reachable through the debug library with any value as self. */
static inline tk_Box *tk_tobox(lua_State *L, int i, int32_t kind) {
    tk_Box *box = tk_anybox(L, i);
    return box && box->kind == kind ? box : NULL;
}

/* Pushes the first or second value of the running C function if it is the userdata of the
 * engine object `object` and returns 1; pushes nothing and returns 0 otherwise. */
static inline int tk_push_argument(lua_State *L, const void *object) {
    for (int i = 1; i <= 2; i++) {
        const tk_Box *box = tk_anybox(L, i);
        if (box && box->object == object) {
            lua_pushvalue(L, i);
            return 1;
        }
    }
    return 0;
}

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
    lua_rawgeti(L, LUA_REGISTRYINDEX, limits->overrides_metatable);
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

/* `__index` of nodes, answered in C where it can be. `node.traitCollection` is answered from the
 * node's second user value while the collection cached there (`box->collection`) is still the
 * node's current one, and else from the identity cache when the collection has a userdata
 * already (after an update, most nodes share a collection another node's read has brought to
 * Lua); `node.traitOverrides` from TK_OVERRIDES_SLOT, where its first fetch makes the proxy.
 * Any other key is looked up in the node's member table, as the Swift `__index` of other
 * objects (indexObject) does first: a method is returned from here, a property getter (a light
 * userdata) runs in this frame (the `traitCollection` getter makes and caches a collection that
 * has no userdata yet);
 * then the node's per-instance fields. What is left (the Lua class chain, the error for a
 * stranger) runs the Swift rest of `__index` (upvalue 1, indexNodeFallback) in this frame,
 * which looks at the fields again (they cannot have changed: nothing ran). Upvalues 2 and 3:
 * "traitCollection", "traitOverrides"; 4: the identity cache of collections. */
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
    if (lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {  /* per-instance fields */
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    }
    lua_settop(L, 2);
    return tk_trampoline(L);
}

static inline void tk_pushnodeindex(lua_State *L, tk_SwiftFunction f, int cache_ref) {
    tk_Limits *limits = tk_limits(L);
    lua_pushlightuserdata(L, (void *)f);
    lua_pushliteral(L, "traitCollection");
    limits->collection_key = lua_topointer(L, -1);
    lua_pushliteral(L, "traitOverrides");
    limits->overrides_key = lua_topointer(L, -1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, cache_ref);
    lua_pushcclosure(L, tk_node_index, 4);
}

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
    lua_rawset(L, -3);
    lua_pushcclosure(L, tk_collection_index, 4);
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

/* Pushes a Swift function as a Lua C closure (through the trampoline). */
static inline void tk_pushswift(lua_State *L, tk_SwiftFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_pushcclosure(L, tk_trampoline, 1);
}

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

/* Pushes a Swift function whose upvalues 2 to n + 1 are the n values on top (popped). */
static inline void tk_pushswift_with(lua_State *L, tk_SwiftFunction f, int n) {
    lua_pushlightuserdata(L, (void *)f);
    lua_rotate(L, -(n + 1), 1);
    lua_pushcclosure(L, tk_trampoline, n + 1);
}

/* Calls f(L) with Swift frames marked off, for lua_pcall made from Swift. */
static inline int tk_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    tk_Limits *limits = tk_limits(L);
    int saved = limits->swift_depth;
    limits->swift_depth = 0;
    int status = lua_pcall(L, nargs, nresults, msgh);
    limits->swift_depth = saved;
    return status;
}

/* The count hook behind --timeout and --memory-limit: raises from inside Lua's own frames.
 * Once a limit has ended the run it raises at every instruction of every thread it reaches
 * (a thread switches to a count of 1 on its first hook after), so code that catches the error
 * with pcall cannot go on: the next instruction after the pcall raises again. */
static inline void tk_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    tk_Limits *limits = tk_limits(L);
    if (!limits->ended && limits->deadline > 0 && tk_now() > limits->deadline) limits->ended = 1;
    if (!limits->ended) return;
    lua_sethook(L, tk_hook, LUA_MASKCOUNT, 1);
    if (limits->ended == 2) {
        limits->memory_error = 1;
        luaL_error(L, "memory limit of %d MB exceeded", (int)(limits->limit / (1024 * 1024)));
    }
    if (limits->timeout == (double)(int)limits->timeout)  /* "2 s", not "2.0 s" */
        luaL_error(L, "time limit of %d s exceeded", (int)limits->timeout);
    luaL_error(L, "time limit of %f s exceeded", limits->timeout);
}

static inline void tk_sethook(lua_State *L, int on) {
    lua_sethook(L, on ? tk_hook : NULL, on ? LUA_MASKCOUNT : 0, 10000);
}

/* The hook the limits need now: every instruction once one has ended the run, every 10,000
 * while one is set, else none. */
static inline void tk_resethook(lua_State *L) {
    tk_Limits *limits = tk_limits(L);
    if (limits->ended) lua_sethook(L, tk_hook, LUA_MASKCOUNT, 1);
    else tk_sethook(L, limits->deadline > 0 || limits->limit > 0);
}

/* A message handler that appends a traceback (as lua.c's msghandler). An error that already
   carries one (a handler's error re-raised by the tk.update() that ran it) keeps it alone: it
   was taken deeper in the same stack, so a second would only repeat the outer frames. It
   keeps the error value itself too (TK_ERROR_KEY), which a binding call that runs a script
   function directly raises again unchanged (TK_RAISE_PASS); such a message, when it reaches
   a handler, gets the traceback taken where it was first raised. */
static inline int tk_msghandler(lua_State *L) {
    const char *msg;
    lua_pushvalue(L, 1);  /* the value itself, for a binding call that passes it through */
    lua_setfield(L, LUA_REGISTRYINDEX, TK_ERROR_KEY);
    tk_limits(L)->kept_error = 1;
    if (!lua_isnil(L, 1)) {  /* an error that passed through: its own traceback */
        int passed;
        lua_getfield(L, LUA_REGISTRYINDEX, TK_PASSED_KEY);
        passed = lua_rawequal(L, 1, -1);
        lua_pop(L, 1);
        if (passed) {
            lua_pushnil(L);
            lua_setfield(L, LUA_REGISTRYINDEX, TK_PASSED_KEY);
            lua_getfield(L, LUA_REGISTRYINDEX, TK_TRACE_KEY);
            return 1;
        }
    }
    msg = lua_tostring(L, 1);
    if (msg != NULL && strstr(msg, "\nstack traceback:\n") != NULL) return 1;
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Drops the error values kept for passing through, so they pin nothing once no call can
   pass them (a run or an update ended). Setting an existing key to nil never allocates, so
   this cannot raise; a run without errors does not touch the registry at all. */
static inline void tk_forget_error(lua_State *L) {
    tk_Limits *limits = tk_limits(L);
    if (!limits->kept_error) return;
    limits->kept_error = 0;
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, TK_ERROR_KEY);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, TK_PASSED_KEY);
}

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
