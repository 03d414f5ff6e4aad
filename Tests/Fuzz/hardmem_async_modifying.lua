-- The crash the hard-memory pass finds (not yet diagnosed): under Lua built with
-- HARDMEMTESTS (Scripts/check-lua-api --hardmem builds it), this aborts in Lua's collector or
-- in luaG_traceexec; the release and API-checked libraries run it to "done". Kept so the fix
-- can be checked: LD_LIBRARY_PATH=.build/lua-hardmem .build/release/traitkit run THIS_FILE
local tk = require "traitkit"
local Obj = tk.defineTrait{ name = "MinObj", kind = "object" }
local base = tk.TraitCollection{ horizontalSizeClass = "compact" }
tk.async(function() base:modifying(function(b2) b2.MinObj = {} end) end); tk.update()
collectgarbage("incremental", 10, 1000, 10)
local x = tk.TraitCollection(function(b) b[Obj] = { 1 } end)
print("done")
