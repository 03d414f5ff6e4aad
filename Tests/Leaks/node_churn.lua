-- Leak check (DESIGN.md §7): n views created, given overrides and handlers, updated,
-- moved between parents, unregistered and removed, while the hierarchy stays small.
--   traitkit run Tests/Leaks/node_churn.lua [n]
local tk = require "traitkit"
local n = tonumber(arg and arg[1]) or 1000000

local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
local root = tk.ViewController{}
window.rootViewController = root
local left, right = tk.View{ name = "left" }, tk.View{ name = "right" }
root.view:addSubview(left)
root.view:addSubview(right)
right.traitOverrides.userInterfaceStyle = "dark"
tk.update()

local fired = 0
local live = {}
for i = 1, n do
  local v = tk.View{ name = "v" .. i, backgroundColor = tk.Color.systemBackground }
  v.traitOverrides.horizontalSizeClass = "compact"
  local token = v:registerForTraitChanges({"userInterfaceStyle"}, function() fired = fired + 1 end)
  left:addSubview(v)
  live[#live + 1] = { v, token }
  if #live == 100 then
    tk.update()
    for k, entry in ipairs(live) do
      if k % 2 == 0 then right:addSubview(entry[1]) end
    end
    tk.update()
    for k, entry in ipairs(live) do
      if k % 3 == 0 then entry[1]:unregisterForTraitChanges(entry[2]) end
      if k % 5 == 0 then entry[1].traitOverrides:remove("horizontalSizeClass") end
      entry[1]:removeFromSuperview()
    end
    live = {}
  end
end
tk.update()

assert(fired > 0, "no handler fired")
assert(#left.subviews + #right.subviews == #live, "removed views are still attached")
