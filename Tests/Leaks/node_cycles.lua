-- Leak check (DESIGN.md §7): build and drop n views whose handlers capture the view
-- itself (view -> handler -> view). Engine-held closures live in the view's user value,
-- so each cycle is plain Lua garbage: after collectgarbage() the Lua heap is back at
-- its baseline and no view survives (measured as churn.lua says).
--   traitkit run Tests/Leaks/node_cycles.lua [n]
local tk = require "traitkit"
local n = tonumber(arg and arg[1]) or 1000000
local batch = 1000

local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
local root = tk.ViewController{}
window.rootViewController = root
local alive = setmetatable({}, { __mode = "k" }) -- a sample: the last view of each batch

local function buildAndDrop(first, last)
  local parent = tk.View{ name = "batch" .. first }
  root.view:addSubview(parent)
  for i = first, last do
    local v = tk.View{ name = "v" .. i }
    v:registerForTraitChanges({"displayScale"}, function(self) self.seen = v end)
    v.traitOverrides.displayScale = 2
    parent:addSubview(v)
    if i == last then alive[v] = true end
  end
  tk.update()
  parent:removeFromSuperview()
end

local checkChurn = dofile((arg[0]:match("^(.*/)") or "") .. "churn.lua")
checkChurn(n, batch, buildAndDrop, alive)
assert(#root.view.subviews == 0, "the root kept views")
