-- Pure Lua, no TraitKit: Lua 5.4.4 built with LUAI_ASSERT and HARDMEMTESTS aborts on this
-- script with "ldebug.c:880: luaG_traceexec: Assertion ... failed" in its own stand-alone
-- interpreter (SIGSEGV without assertions); 5.4.7 runs it. Scripts/check-lua-api --hardmem
-- runs it with the Lua it built, to show that Lua is sound in that mode. (Reduced from a fuzz
-- script; the nested coroutine.wrap replaced while running matters.)
local X = {}
local function P(f) return pcall(f) end
local t = {}
P(function() collectgarbage("incremental", 10, 1000, 10) end)
P(function() X.co = coroutine.wrap(function() P(function() local s = tostring(t) end) P(function() t[3] = {} end) P(function() X.key = { name = "fuzz2" } end) coroutine.yield() P(function() t[2] = {} end) P(function() X.co = coroutine.wrap(function() P(function() t[2] = setmetatable({}, {}) end) P(function() collectgarbage("incremental", 10, 1000, 10) end) P(function() t[1] = nil end) coroutine.yield() P(function() t[5] = 1 end) P(function() t[6] = 2 end) end); X.co() end) P(function() t[7] = 1 end) end); X.co() end)
P(function() X.co() end)
collectgarbage()
print("done")
