/* Ctrl-C while a chunk runs (the REPL): like lua.c, the SIGINT handler only sets a hook,
 * which raises "interrupted" from inside Lua at the next instruction.
 *
 * The handler's state must exist once per process, so it lives in this C target rather than
 * as statics in CLua's header (which every object file including it would copy).
 * Also: what glibc's allocator holds, for `traitkit bench` (malloc.h is not in Swift's Glibc). */
#ifndef TRAITKIT_CSUPPORT_H
#define TRAITKIT_CSUPPORT_H
#include <stddef.h>

typedef struct lua_State lua_State;

/* Installs the SIGINT handler and unblocks SIGINT (a parent may have blocked it). */
void tk_install_sigint(void);
/* Arms the handler for L while a chunk runs; NULL disarms. */
void tk_arm_interrupt(lua_State *L);
/* Whether SIGINT arrived since the last call (Ctrl-C at the prompt). */
int tk_take_sigint(void);

/* Bytes currently allocated through malloc (mallinfo2().uordblks). */
size_t tk_malloc_in_use(void);

#endif
