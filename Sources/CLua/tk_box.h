/* The block at the start of every engine object's full userdata, and the checks the C fast
 * paths make before they trust a value to be one. */
#ifndef TRAITKIT_CLUA_BOX_H
#define TRAITKIT_CLUA_BOX_H

#include <lua5.4/lua.h>
#include <stdint.h>

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

#endif
