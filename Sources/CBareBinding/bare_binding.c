/* A bare C binding of views, written as a C binding usually is (see CBareBinding.h).
 *
 * A view is a userdata holding its parent pointer, its place among its parent's children and
 * a dirty flag. Its user values hold its children table (which keeps them alive), its name,
 * its parent's userdata, its overrides proxy, its handlers table and its two colors. A
 * removal leaves a hole in the children table, so it costs the same at any sibling count;
 * `addSubview` marks the path up dirty. `traitOverrides` is a userdata made on the first fetch
 * and kept in the view; assigning to it checks the key against the defined trait names,
 * stores the value in a table and marks the path dirty. A registration checks its trait
 * list, makes a token userdata and keeps the handler in the view's handlers table under it.
 * It does no updates: every view's `traitCollection` is one shared empty table, so the whole
 * script run on it costs what a binding pays before any engine work. */
#include "CBareBinding.h"
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <string.h>

#define VIEW "traitkit.bare.View"
#define OVERRIDES "traitkit.bare.Overrides"
#define COLOR "traitkit.bare.Color"

typedef struct View {
    struct View *parent;
    lua_Integer index;  /* in the parent's children table */
    lua_Integer count;  /* slots used in its own */
    int dirty;
} View;

enum { CHILDREN = 1, NAME, PARENT, PROXY, HANDLERS, BACKGROUND, TINT, SLOTS = TINT };
enum { PROXY_VALUES = 1, PROXY_VIEW, PROXY_SLOTS = PROXY_VIEW };

static View *check_view(lua_State *L, int i) { return (View *)luaL_checkudata(L, i, VIEW); }

/* Whether the value at i is the string `key` of length n. */
static int is_key(lua_State *L, int i, const char *key, size_t n) {
    size_t length;
    const char *s = lua_type(L, i) == LUA_TSTRING ? lua_tolstring(L, i, &length) : NULL;
    return s && length == n && memcmp(s, key, n) == 0;
}

static void mark_dirty(View *view) {
    for (; view && !view->dirty; view = view->parent) view->dirty = 1;
}

/* Pushes the table in user value `slot` of the userdata at i, made there if it has none. */
static void push_table(lua_State *L, int i, int slot) {
    if (lua_getiuservalue(L, i, slot) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 0);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, i, slot);
}

/* View{ name = ..., backgroundColor = ..., tintColor = ... } */
static int view_new(lua_State *L) {
    View *view = (View *)lua_newuserdatauv(L, sizeof *view, SLOTS);
    memset(view, 0, sizeof *view);
    luaL_setmetatable(L, VIEW);
    if (lua_type(L, 1) != LUA_TTABLE) return 1;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        int slot = is_key(L, -2, "name", 4) ? NAME
                 : is_key(L, -2, "backgroundColor", 15) ? BACKGROUND
                 : is_key(L, -2, "tintColor", 9) ? TINT : 0;
        if (!slot) return luaL_error(L, "unknown field in View{...}");
        if (slot != NAME) luaL_checkudata(L, -1, COLOR);
        lua_setiuservalue(L, -3, slot);
    }
    return 1;
}

/* Takes the view at i (whose block is `view`) out of its parent's children. */
static void detach(lua_State *L, int i, View *view) {
    if (!view->parent) return;
    lua_getiuservalue(L, i, PARENT);
    lua_getiuservalue(L, -1, CHILDREN);
    lua_pushnil(L);
    lua_rawseti(L, -2, view->index);
    lua_pop(L, 2);
    lua_pushnil(L);
    lua_setiuservalue(L, i, PARENT);
    view->parent = NULL;
}

static int add_subview(lua_State *L) {
    View *parent = check_view(L, 1), *child = check_view(L, 2);
    detach(L, 2, child);
    push_table(L, 1, CHILDREN);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, ++parent->count);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, 2, PARENT);
    child->parent = parent;
    child->index = parent->count;
    child->dirty = 1;
    mark_dirty(parent);
    return 0;
}

static int remove_from_superview(lua_State *L) {
    detach(L, 1, check_view(L, 1));
    return 0;
}

/* view:registerForTraitChanges({ trait, ... }, handler) -> token. Upvalue 1: the trait names. */
static int register_for_trait_changes(lua_State *L) {
    check_view(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
    if (n == 0) return luaL_error(L, "registerForTraitChanges needs at least one trait");
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL) return luaL_error(L, "unknown trait");
        lua_pop(L, 1);
    }
    push_table(L, 1, HANDLERS);
    lua_newuserdatauv(L, 0, 0);  /* the token */
    lua_pushvalue(L, -1);
    lua_pushvalue(L, 3);
    lua_rawset(L, -4);
    return 1;
}

/* `__newindex` of a proxy: proxy[name] = value. Upvalue 1: the trait names. */
static int overrides_newindex(lua_State *L) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL) return luaL_error(L, "unknown trait");
    push_table(L, 1, PROXY_VALUES);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, -3);
    lua_getiuservalue(L, 1, PROXY_VIEW);
    mark_dirty((View *)lua_touserdata(L, -1));
    return 0;
}

/* Pushes the overrides proxy of the view at 1, made on the first fetch. */
static int push_overrides(lua_State *L) {
    if (lua_getiuservalue(L, 1, PROXY) == LUA_TUSERDATA) return 1;
    lua_pop(L, 1);
    lua_newuserdatauv(L, 0, PROXY_SLOTS);
    luaL_setmetatable(L, OVERRIDES);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, PROXY_VIEW);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, 1, PROXY);
    return 1;
}

/* `__index` of views: a method (upvalue 1), `traitOverrides`, `traitCollection` (upvalue 2, the
 * one empty table every view answers) or `name`. */
static int view_index(lua_State *L) {
    check_view(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    if (is_key(L, 2, "traitOverrides", 14)) return push_overrides(L);
    if (is_key(L, 2, "traitCollection", 15)) {
        lua_pushvalue(L, lua_upvalueindex(2));
        return 1;
    }
    if (is_key(L, 2, "name", 4)) {
        lua_getiuservalue(L, 1, NAME);
        return 1;
    }
    return luaL_error(L, "View has no field '%s'", luaL_tolstring(L, 2, NULL));
}

/* defineTrait(name) -> name. Upvalue 1: the trait names. */
static int define_trait(lua_State *L) {
    luaL_checktype(L, 1, LUA_TSTRING);
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, lua_upvalueindex(1));
    return 1;
}

int tk_open_bare_binding(lua_State *L) {
    lua_createtable(L, 0, 4);  /* the trait names, shared by the closures below */
    int traits = lua_gettop(L);
    luaL_newmetatable(L, VIEW);
    lua_createtable(L, 0, 3);
    lua_pushcfunction(L, add_subview);
    lua_setfield(L, -2, "addSubview");
    lua_pushcfunction(L, remove_from_superview);
    lua_setfield(L, -2, "removeFromSuperview");
    lua_pushvalue(L, traits);
    lua_pushcclosure(L, register_for_trait_changes, 1);
    lua_setfield(L, -2, "registerForTraitChanges");
    lua_createtable(L, 0, 0);  /* the one collection every view answers */
    lua_pushcclosure(L, view_index, 2);
    lua_setfield(L, -2, "__index");
    luaL_newmetatable(L, OVERRIDES);
    lua_pushvalue(L, traits);
    lua_pushcclosure(L, overrides_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    luaL_newmetatable(L, COLOR);
    lua_createtable(L, 0, 3);  /* the module */
    lua_pushcfunction(L, view_new);
    lua_setfield(L, -2, "View");
    lua_pushvalue(L, traits);
    lua_pushcclosure(L, define_trait, 1);
    lua_setfield(L, -2, "defineTrait");
    lua_newuserdatauv(L, 0, 0);
    lua_pushvalue(L, -3);
    lua_setmetatable(L, -2);
    lua_setfield(L, -2, "color");
    return 1;
}
