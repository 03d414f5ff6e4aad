/* The state's limits (--memory-limit, --timeout): the allocator that counts what Lua holds,
 * the count hook that ends a run over a limit, and the states they come with. While Swift
 * frames are on top the allocator never fails (it notes an overrun instead, which
 * tk_call_swift reports once control is back in C), so the raw API calls Swift makes cannot
 * raise for memory. */
#ifndef TRAITKIT_CLUA_LIMITS_H
#define TRAITKIT_CLUA_LIMITS_H

#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tk_warn.h"

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
    int counting;          /* the state allocates through tk_alloc */
    lua_Alloc host_alloc;  /* an attached state's own allocator, which makes its blocks (tk_attach) */
    void *host_ud;
    void **spares;         /* blocks the C library made while host_alloc refused under Swift frames */
    int nspares, spare_room;
    int refused;           /* host_alloc refused while swift_depth > 0: raised once back in C */
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

/* An attached state's blocks come from the program's allocator, which may keep its own
 * bookkeeping with each and may refuse (a program's memory limit). A refusal while Swift
 * frames are on top must not fail (Lua would raise through them): that block comes from the
 * C library instead, is listed as a spare so that it goes back there, and tk_run_swift
 * raises "not enough memory" once control is back in C. */
static inline int tk_spare_index(tk_Limits *limits, void *ptr) {
    for (int i = 0; i < limits->nspares; i++)
        if (limits->spares[i] == ptr) return i;
    return -1;
}

/* Resizes or frees spare `i` (the C library's block). */
static inline void *tk_resize_spare(tk_Limits *limits, int i, size_t nsize) {
    if (nsize == 0) {
        free(limits->spares[i]);
        limits->spares[i] = limits->spares[--limits->nspares];
        return NULL;
    }
    void *p = realloc(limits->spares[i], nsize);
    if (p) limits->spares[i] = p;
    return p;
}

/* The block the program's allocator refused, from the C library: `ptr`'s contents move
 * into it, and `ptr` goes back to the program. NULL if the C library refuses too. */
static inline void *tk_make_spare(tk_Limits *limits, void *ptr, size_t osize, size_t nsize) {
    if (limits->nspares == limits->spare_room) {
        int room = limits->spare_room ? 2 * limits->spare_room : 8;
        void **spares = realloc(limits->spares, (size_t)room * sizeof *spares);
        if (!spares) return NULL;
        limits->spares = spares;
        limits->spare_room = room;
    }
    void *p = malloc(nsize);
    if (!p) return NULL;
    if (ptr) {
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        limits->host_alloc(limits->host_ud, ptr, osize, 0);
    }
    limits->spares[limits->nspares++] = p;
    limits->refused = 1;
    return p;
}

/* Makes, resizes or frees a block as Lua's allocator contract says: with the C library, or
 * for an attached state with the program's allocator. */
static inline void *tk_block(tk_Limits *limits, void *ptr, size_t osize, size_t nsize) {
    if (!limits->host_alloc) {
        if (nsize == 0) { free(ptr); return NULL; }
        return ptr ? realloc(ptr, nsize) : malloc(nsize);
    }
    int spare = limits->nspares && ptr ? tk_spare_index(limits, ptr) : -1;
    if (spare >= 0) return tk_resize_spare(limits, spare, nsize);
    void *p = limits->host_alloc(limits->host_ud, ptr, osize, nsize);
    if (p || nsize == 0 || limits->swift_depth == 0) return p;
    return tk_make_spare(limits, ptr, osize, nsize);
}

/* The last block an attached state frees is the one its main thread sits in (lua_close
 * frees it last of all): nothing reads the limits after that, so they go too. */
static inline void tk_free_attached(tk_Limits *limits, void *ptr) {
    if (!limits->host_alloc || ptr != lua_getextraspace(limits->main)) return;
    free(limits->spares);
    free(limits);
}

static inline void *tk_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    tk_Limits *limits = (tk_Limits *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        limits->used -= old;
        tk_block(limits, ptr, osize, 0);
        tk_free_attached(limits, ptr);
        return NULL;
    }
    if (limits->limit && nsize > old && limits->used - old + nsize > limits->limit) {
        if (limits->swift_depth == 0) { tk_end_for_memory(limits); return NULL; }
        limits->exceeded = 1;
    }
    void *p = tk_block(limits, ptr, osize, nsize);
    if (p) limits->used = limits->used - old + nsize;
    limits->allocations += (ptr == NULL);
    return p;
}

/* lua.c's allocator: a state's while nothing asks for counting (no --memory-limit, no
 * allocation figures), so a script pays nothing for limits it did not set. A new block goes
 * to malloc itself: most of Lua's allocations are new objects, and glibc's realloc of NULL
 * costs a call and its checks more. */
static inline void *tk_plain_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud; (void)osize;
    if (nsize == 0) { free(ptr); return NULL; }
    if (ptr == NULL) return malloc(nsize);
    return realloc(ptr, nsize);
}

/* Switches the state between tk_plain_alloc and the counting tk_alloc. Both use malloc, realloc
 * and free, so blocks move between them freely; counting starts from what Lua holds now. Which
 * one the state has is kept in `counting`, not found by comparing lua_getallocf's answer with
 * them: these functions are static, and each Swift source file that calls them may get a copy
 * of its own, at an address of its own. */
static inline void tk_setcounting(lua_State *L, tk_Limits *limits, int on) {
    if (on && !limits->counting) {
        limits->used = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB);
        lua_setallocf(L, tk_alloc, limits);
        limits->counting = 1;
    } else if (!on && limits->counting) {
        lua_setallocf(L, tk_plain_alloc, NULL);
        limits->counting = 0;
    }
}

/* The registry's key for an attached state's limits: a light userdata, so that looking for it
 * allocates nothing, even before the module is attached (tk_is_attached). */
#define TK_LIMITS_KEY ((void *)0x544b10)

/* Whether the state already has the module attached (a second `luaopen_traitkit`). */
static inline int tk_is_attached(lua_State *L) {
    int type = lua_rawgetp(L, LUA_REGISTRYINDEX, TK_LIMITS_KEY);
    lua_pop(L, 1);
    return type == LUA_TLIGHTUSERDATA;
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
 * the limits are kept in the registry instead, under TK_LIMITS_KEY: the lookup allocates
 * nothing and cannot raise. It takes a stack slot, which the caller may not have left (a call
 * that made room for exactly its function and arguments), so it makes room first;
 * lua_checkstack does not raise. Without room (a stack at Lua's limit of slots) the
 * allocator's data answers: tk_attach made it the limits, and it stays so unless the program
 * replaces the allocator of a state that has loaded the module. */
static inline tk_Limits *tk_limits(lua_State *L) {
    if (!lua_checkstack(L, 1)) {
        void *limits;
        (void)lua_getallocf(L, &limits);
        return (tk_Limits *)limits;
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, TK_LIMITS_KEY);
    tk_Limits *limits = (tk_Limits *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return limits;
}
#endif

/* Takes over a state another program made (`require "traitkit"` from lua5.4): its allocator
 * becomes tk_alloc, which counts from what Lua holds now and hands every block on to the
 * program's own allocator (tk_block); the registry keeps `limits`. Swift frames are on top
 * until a call, so nothing here can fail for memory. */
static inline void tk_attach(lua_State *L, tk_Limits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->host_alloc = lua_getallocf(L, &limits->host_ud);
    limits->swift_depth = 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    limits->main = lua_tothread(L, -1);
    lua_pop(L, 1);
    tk_setcounting(L, limits, 1);
    lua_pushlightuserdata(L, limits);
    lua_rawsetp(L, LUA_REGISTRYINDEX, TK_LIMITS_KEY);
}

/* A new state for `limits`, allocating without counting until tk_setcounting asks for it;
 * Swift frames are on top until a call. Its collector is generational, as lua.c sets it: a
 * script's nodes live long, and an incremental cycle traces all of them again while the
 * script configures them (a script may still choose `collectgarbage("incremental")`). Its
 * warnings are luaL_newstate's: off until "@on" (tk_warn.h). */
static inline lua_State *tk_newstate(tk_Limits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->swift_depth = 1;
    limits->main = lua_newstate(tk_plain_alloc, NULL);
    if (limits->main) {
        *(tk_Limits **)lua_getextraspace(limits->main) = limits;
        lua_gc(limits->main, LUA_GCGEN, 0, 0);
        tk_setwarnings(limits->main);
    }
    return limits->main;
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

#endif
