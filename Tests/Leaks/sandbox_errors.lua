-- Leak check (DESIGN.md §7): n errors of the kinds a hostile script provokes, run as
--   traitkit run --sandbox --memory-limit 32 Tests/Leaks/sandbox_errors.lua [n]
-- refused sandbox calls, refused binary chunks, API calls with bad arguments and constructor
-- fields that fail (a bad value, an unknown key, a script's error from a setter's method),
-- caught with pcall each time, under a memory limit they must never reach. (Running into the
-- limit ends the run, caught or not: the runs it ends are checked by LeakTests and
-- Scripts/leaks.)
local tk = require "traitkit"
local n = tonumber(... or nil) or 1000000
assert(io == nil and debug == nil, "run this with --sandbox")

local view = tk.View{ name = "target" }
local dumped = string.dump(function() end)
-- A constructor field whose setter runs a script's method that raises: the error leaves the
-- constructor as the method raised it.
local Raising = tk.View:subclass("Raising")
function Raising:tintColorDidChange() error({ code = "tint" }) end

-- Each check: the failing call, and a word its message must contain.
local checks = {
  { function() dofile("x.lua") end, "sandboxed" },
  { function() load(dumped, "b", "b") end, "binary chunks are refused" },
  { function() tk.View{ name = 42 } end, "name" },
  { function() view:addSubview(view) end, "ancestor" },
  { function() return view.traitOverrides.userInterfaceStyle end, "no override" },
  { function() view.traitOverrides.userInterfaceStyle = "purple" end, "purple" },
  { function() tk.View{ name = "f", backgroundColor = 5 } end, "bad field 'backgroundColor'" },
  { function() tk.View{ name = "f", colour = tk.Color.systemRed } end, "unknown field 'colour'" },
  { function() Raising{ tintColor = tk.Color.systemRed } end, "tint" },
}

for i = 1, n do
  local check = checks[i % #checks + 1]
  local ok, err = pcall(check[1])
  assert(not ok, "call " .. i .. " should have failed")
  if type(err) == "table" then err = err.code end
  assert(tostring(err):find(check[2], 1, true), "call " .. i .. ": " .. tostring(err))
end
assert(view.superview == nil and #view.subviews == 0, "the view changed")
