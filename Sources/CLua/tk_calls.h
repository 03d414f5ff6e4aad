/* Calls across the boundary (DESIGN.md §7: no Lua error ever unwinds through a Swift frame).
 * A Swift function called from Lua returns a result count, or a negative code with the
 * message on the stack, and tk_call_swift raises it from C once the Swift frames are gone.
 * Calls from Swift into Lua are protected (tk_pcall), with a message handler that keeps the
 * error value and a traceback. */
#ifndef TRAITKIT_CLUA_CALLS_H
#define TRAITKIT_CLUA_CALLS_H

#include "tk_limits.h"

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

/* Runs the Swift function `f` in the running C function's frame, counting the Swift frame,
 * and returns what it returned; raises the memory overrun the allocator noted meanwhile
 * (tk_limits.h) once `f` has returned. A state another program made and is closing has no
 * runtime any more (LuaModuleOpen.swift): a finalizer that runs after the module's own is
 * refused. */
static inline int tk_run_swift(lua_State *L, tk_SwiftFunction f) {
    tk_Limits *limits = tk_limits(L);
    if (!limits->runtime) {
        lua_pushliteral(L, "traitkit cannot be used once its Lua state is closing "
                           "(a finalizer that runs after the module's own)");
        return TK_RAISE_WHERE;
    }
    int saved = limits->swift_depth;
    limits->swift_depth = saved + 1;
    int n = f(L);
    limits->swift_depth = saved;
    if (limits->refused && saved == 0) {  /* the program's allocator refused meanwhile */
        limits->refused = 0;
        lua_pushliteral(L, "not enough memory");
        return lua_error(L);
    }
    if (limits->exceeded && saved == 0) {
        limits->exceeded = 0;
        /* As Lua does before failing an allocation: collect, and go on if that was enough. */
        lua_gc(L, LUA_GCCOLLECT);
        if (limits->used <= limits->limit) return n;
        tk_end_for_memory(limits);
        lua_pushliteral(L, "not enough memory");  /* may itself fail: LUA_ERRMEM, as wanted */
        return lua_error(L);
    }
    return n;
}

/* What a Swift function returned, `n`: a result count, returned; or what it asked to raise
 * (see the top of this file), raised. */
static inline int tk_swift_result(lua_State *L, int n) {
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

/* Runs the Swift function `f` as the body of the running C function, and raises what `f`
 * asked to raise once `f` has returned. */
static inline int tk_call_swift(lua_State *L, tk_SwiftFunction f) {
    return tk_swift_result(L, tk_run_swift(L, f));
}

/* The metamethods every trait read runs start on a cache line of their own. Left where the
 * linker puts them (the module does not align functions), a change anywhere in these headers
 * moved `node.traitCollection.T` by 5 % from build to build. */
#define TK_HOT __attribute__((aligned(64)))

/* A Swift function as a C function: upvalue 1 is the Swift function. */
static inline int tk_trampoline(lua_State *L) {
    return tk_call_swift(L, (tk_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1)));
}

/* The registry's weak-keyed set of the binding's C closures (tk_debug.h keeps their upvalues
 * from being replaced: their C code trusts them). A C function's address cannot tell them
 * apart: each object file that uses a header's static function has a copy of its own. */
#define TK_FUNCTIONS_KEY "traitkit.functions"

/* Makes the set, before the binding pushes any closure. */
static inline void tk_make_function_set(lua_State *L) {
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, TK_FUNCTIONS_KEY);
}

/* Enters the closure on top in the set (kept on top). */
static inline void tk_mark_function(lua_State *L) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, TK_FUNCTIONS_KEY) == LUA_TTABLE) {
        lua_pushvalue(L, -2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
}

/* Pushes a Swift function as a Lua C closure (through the trampoline). */
static inline void tk_pushswift(lua_State *L, tk_SwiftFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_pushcclosure(L, tk_trampoline, 1);
    tk_mark_function(L);
}

/* Pushes a Swift function whose upvalues 2 to n + 1 are the n values on top (popped). */
static inline void tk_pushswift_with(lua_State *L, tk_SwiftFunction f, int n) {
    lua_pushlightuserdata(L, (void *)f);
    lua_rotate(L, -(n + 1), 1);
    lua_pushcclosure(L, tk_trampoline, n + 1);
    tk_mark_function(L);
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
    if (msg == NULL && luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
        /* Called protected: a __tostring that raises would otherwise run this handler again
           on its own error, which would replace the value kept above. Its message becomes the
           text then, with the traceback, as lua.c shows it. */
        lua_pushvalue(L, 1);
        int status = lua_pcall(L, 1, 1, 0);
        if (lua_type(L, -1) == LUA_TSTRING) {
            if (status == LUA_OK) return 1;
            msg = lua_tostring(L, -1);
        }
    }
    if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
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

#endif
