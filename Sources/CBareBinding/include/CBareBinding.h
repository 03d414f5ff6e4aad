/* The bare C binding `traitkit bench` times the everyday operations against: the same calls
 * as TraitKit's (`View{...}`, `addSubview`, `removeFromSuperview`, `traitOverrides`,
 * `registerForTraitChanges`, `traitCollection`), with no engine behind them. What it costs is what any Lua
 * binding pays on the machine before doing any work of its own: the interpreter's call
 * into C, a userdata, a metatable check, a few API calls. */
#ifndef TRAITKIT_CBAREBINDING_H
#define TRAITKIT_CBAREBINDING_H

typedef struct lua_State lua_State;

/* Pushes the module table: `View`, `defineTrait(name)` (returns the name), `color`. */
int tk_open_bare_binding(lua_State *L);

#endif
