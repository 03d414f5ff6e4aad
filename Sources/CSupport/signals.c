#include "CSupport.h"
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <signal.h>
#include <string.h>

static lua_State *volatile armed = NULL;
static volatile sig_atomic_t seen = 0;

/* Runs inside Lua at the next instruction after Ctrl-C; the REPL restores its own hook
 * (the --timeout one, if any) when the chunk ends. */
static void interrupt_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted");
}

/* As lua.c's laction: setting a hook is the one thing a signal handler may do to a state. */
static void on_sigint(int sig) {
    (void)sig;
    seen = 1;
    lua_State *L = armed;
    if (L != NULL) lua_sethook(L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void tk_install_sigint(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGINT);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

void tk_arm_interrupt(lua_State *L) { armed = L; }

int tk_take_sigint(void) {
    int was = seen;
    seen = 0;
    return was;
}
