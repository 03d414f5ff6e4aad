/* Lua's warnings (`warn`, and an error in a `__gc` metamethod) as the stand-alone `lua`
 * gives them: off until a script sends "@on", then each on standard error as
 * "Lua warning: " and its pieces, "@off" turning them off again. A state made with
 * lua_newstate has no warning function, so without one `warn("@on")` did nothing and a
 * finalizer's error vanished. Nothing here allocates or raises: a warning can come from a
 * collection step while Swift frames are on top. */
#ifndef TRAITKIT_CLUA_WARN_H
#define TRAITKIT_CLUA_WARN_H

#include <lua5.4/lua.h>
#include <stdio.h>
#include <string.h>

static inline void tk_warn_off(void *ud, const char *message, int tocont);
static inline void tk_warn_on(void *ud, const char *message, int tocont);

/* A control message ("@on", "@off"; other "@" messages are ignored) as a whole warning:
 * switches the state's warning function and returns 1. Anything else returns 0. */
static inline int tk_warn_control(lua_State *L, const char *message, int tocont) {
    if (tocont || message[0] != '@') return 0;
    if (strcmp(message + 1, "on") == 0) lua_setwarnf(L, tk_warn_on, L);
    else if (strcmp(message + 1, "off") == 0) lua_setwarnf(L, tk_warn_off, L);
    return 1;
}

static inline void tk_warn_off(void *ud, const char *message, int tocont) {
    tk_warn_control((lua_State *)ud, message, tocont);
}

/* A piece of a warning after its first: written as it is; the last one ends the line. */
static inline void tk_warn_more(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    fputs(message, stderr);
    if (tocont) {
        lua_setwarnf(L, tk_warn_more, L);
    } else {
        fputs("\n", stderr);
        fflush(stderr);
        lua_setwarnf(L, tk_warn_on, L);
    }
}

static inline void tk_warn_on(void *ud, const char *message, int tocont) {
    if (tk_warn_control((lua_State *)ud, message, tocont)) return;
    fputs("Lua warning: ", stderr);
    tk_warn_more(ud, message, tocont);
}

/* Gives `L` the warning function, off. */
static inline void tk_setwarnings(lua_State *L) {
    lua_setwarnf(L, tk_warn_off, L);
}

#endif
