-- Stress (issue #8): a hierarchy of n views built from Lua (default 1,000,000; fan-out 10
-- below the root view, so six levels), then a full theme switch (a custom theme on the
-- scene and dark mode on the screen) and one update. Prints what each step took.
--   traitkit run Tests/Stress/million_nodes.lua [n]
local tk = require "traitkit"
local n = math.tointeger(tonumber(arg and arg[1])) or 1000000
local Theme = tk.defineTrait{ name = "StressTheme", values = { "standard", "pastel" }, default = "standard",
  affectsColorAppearance = true }

local clock = os.clock
local t0 = clock()
local screen = tk.Screen{ userInterfaceIdiom = "phone" }
local scene = tk.WindowScene{ screen = screen }
local window = tk.Window{ scene = scene }
local root = tk.ViewController{ name = "root" }
window.rootViewController = root

-- Breadth-first: each view gets up to 10 subviews until there are n.
local made, queue, head = 0, { root.view }, 1
local themed = 0
while made < n do
  local parent = queue[head]; head = head + 1
  for _ = 1, math.min(10, n - made) do
    local v = tk.View{}
    parent:addSubview(v)
    made = made + 1
    queue[#queue + 1] = v
  end
  queue[head - 1] = false -- let the queue forget what it no longer needs
end
local last = queue[#queue]
queue = nil
local built = clock()
tk.update()
local firstUpdate = clock()

local fired = 0
last:registerForTraitChanges({ Theme, "userInterfaceStyle" }, function() fired = fired + 1 end)
scene.traitOverrides[Theme] = "pastel"
screen:setSystemTraits{ userInterfaceStyle = "dark" }
local switched = clock()
tk.update()
local done = clock()

assert(last.traitCollection[Theme] == "pastel" and last.traitCollection.userInterfaceStyle == "dark",
  "the switch did not reach the deepest view")
assert(fired == 1, "the handler fired " .. fired .. " times")
print(string.format("%d views: built in %.2f s, first update %.2f s, theme switch update %.2f s (%.0f ns per view), Lua heap %.0f MB",
  made, built - t0, firstUpdate - built, done - switched, (done - switched) / made * 1e9, collectgarbage("count") / 1024))
