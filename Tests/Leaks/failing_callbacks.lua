-- Leak check (DESIGN.md §7): trait-change handlers that raise, n callbacks in all.
-- Every round changes a trait that 1,000 handlers watch; each raises, so each update
-- fails with the first error. Memory must stay flat however large n is.
--   traitkit run Tests/Leaks/failing_callbacks.lua [n]
local tk = require "traitkit"
local n = tonumber(arg and arg[1]) or 1000000

local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
local root = tk.ViewController{}
window.rootViewController = root
for i = 1, 1000 do
  local v = tk.View{ name = "v" .. i }
  root.view:addSubview(v)
  v:registerForTraitChanges({"displayScale"}, function(node) error("fail " .. node.name) end)
end
tk.update()

local rounds = n // 1000
for round = 1, rounds do
  window.scene.traitOverrides.displayScale = round
  local ok, err = pcall(tk.update)
  assert(not ok and err:find("fail v", 1, true), tostring(err))
end

assert(#root.view.subviews == 1000, "the hierarchy lost views")
assert(root.view.subviews[1000].traitCollection.displayScale == rounds, "the last change did not arrive")
