/* A program that embeds Lua with an allocator of its own and loads the C module into it,
 * as many hosts do: the allocator keeps a header before each block (its bookkeeping) and
 * refuses to grow past a limit, when one is given. CModuleTests builds and runs it.
 *
 *   allocator_host MODULE_DIR [LIMIT_BYTES]
 *   allocator_host MODULE_DIR states N
 *
 * Prints what the script prints, then the bytes still in use after lua_close (0: every
 * block went back to this allocator). Aborts if it is handed a block it did not make. With
 * `states N` it makes, uses and closes N states one after another, as a server with a state
 * per request does, and prints how much the process grew (kB) from the 20th to the last. */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { size_t size, magic; } Header;
#define MAGIC 0x7ea1b10cUL

static size_t in_use, limit;

static void *allocate(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud; (void)osize;
    Header *h = ptr ? (Header *)ptr - 1 : NULL;
    if (h && h->magic != MAGIC) {
        fprintf(stderr, "allocator_host: handed a block it did not make\n");
        abort();
    }
    size_t old = h ? h->size : 0;
    if (nsize == 0) {
        in_use -= old;
        free(h);
        return NULL;
    }
    if (limit && nsize > old && in_use - old + nsize > limit) return NULL;
    Header *n = realloc(h, sizeof *n + nsize);
    if (!n) return NULL;
    in_use = in_use - old + nsize;
    n->size = nsize;
    n->magic = MAGIC;
    return n + 1;
}

static const char *script =
    "local tk = require 'traitkit'\n"
    "local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }\n"
    "window.rootViewController = tk.ViewController{}\n"
    "local root = window.rootViewController.view\n"
    "local ok, err = pcall(function()\n"
    "  for i = 1, COUNT or 20000 do\n"
    "    local v = tk.View{ name = 'view ' .. i, backgroundColor = tk.Color.systemBlue }\n"
    "    root:addSubview(v)\n"
    "    v.traitOverrides.userInterfaceStyle = 'dark'\n"
    "    v:registerForTraitChanges({ 'horizontalSizeClass' }, function() end)\n"
    "    if i % 500 == 0 then tk.update() end\n"
    "  end\n"
    "end)\n"
    "-- Refused memory surfaces as Lua reports it: a memory error, or (lauxlib's words for a\n"
    "-- stack that could not grow) a stack overflow.\n"
    "print(ok or ((err:match('not enough memory') or err:match('stack overflow')) and 'refused') or err)\n";

/* Resident memory in kB. */
static long resident(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;
    if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
    if (f) fclose(f);
    return rss * 4;
}

/* A state with the standard libraries that finds the module in `modules`. */
static lua_State *new_state(const char *modules) {
    lua_State *L = lua_newstate(allocate, NULL);
    luaL_openlibs(L);
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.so", modules);
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
    return L;
}

/* A short, silent run of the script in a state of its own. */
static void one_state(const char *modules) {
    lua_State *L = new_state(modules);
    (void)luaL_dostring(L, "COUNT = 50; print = function() end");
    if (luaL_dostring(L, script) != LUA_OK) printf("error: %s\n", lua_tostring(L, -1));
    lua_close(L);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (argc > 3 && strcmp(argv[2], "states") == 0) {
        int n = atoi(argv[3]);
        long before = 0;
        for (int i = 1; i <= n; i++) {
            one_state(argv[1]);
            if (i == 20) before = resident();
        }
        printf("grew %ld kB\n", resident() - before);
        return 0;
    }
    lua_State *L = new_state(argv[1]);
    if (argc > 2) limit = in_use + strtoul(argv[2], NULL, 10);
    if (luaL_dostring(L, script) != LUA_OK) printf("error: %s\n", lua_tostring(L, -1));
    lua_close(L);
    printf("in use after close: %zu\n", in_use);
    return 0;
}
