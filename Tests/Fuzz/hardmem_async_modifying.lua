-- Crashed Lua 5.4.4 built with HARDMEMTESTS (a collection at every allocation) in its
-- collector or in luaG_traceexec, as Lua 5.4.4 also does on pure Lua
-- (lua_traceexec_assertion.lua); runs clean under 5.4.7. Scripts/check-lua-api --hardmem
-- runs it first: LD_LIBRARY_PATH=.build/lua-hardmem-trixie .build/release/traitkit run THIS_FILE
local tk = require "traitkit"
local Obj = tk.defineTrait{ name = "MinObj", kind = "object" }
local base = tk.TraitCollection{ horizontalSizeClass = "compact" }
tk.async(function() base:modifying(function(b2) b2.MinObj = {} end) end); tk.update()
collectgarbage("incremental", 10, 1000, 10)
local x = tk.TraitCollection(function(b) b[Obj] = { 1 } end)
print("done")
