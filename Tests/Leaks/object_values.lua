-- Leak check (DESIGN.md §7): build and drop n views whose object-kind trait values point
-- back at them: a controller that hands itself down (controller -> override -> controller)
-- and a model table that refers to its view (view -> override -> model -> view). Override
-- values live in the traitOverrides proxy's user value, not in the registry, so each cycle
-- is plain Lua garbage: after collectgarbage() no view survives and the Lua heap is back at
-- its baseline, give or take the capacity the binding's tables keep (a leak costs hundreds
-- of bytes per view, which the 10 bytes per view allowed here would show).
--   traitkit run Tests/Leaks/object_values.lua [n]
local tk = require "traitkit"
local n = tonumber(arg and arg[1]) or 1000000
local batch = 1000
local Model = tk.defineTrait{ name = "Model", kind = "object" }
local Coordinator = tk.defineTrait{ name = "Coordinator", kind = "object" }

local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
local root = tk.ViewController{}
window.rootViewController = root
local alive = setmetatable({}, { __mode = "k" }) -- a sample: the last view of each batch

local function buildAndDrop(first, last)
  local controller = tk.ViewController{ name = "batch" .. first }
  controller.traitOverrides[Coordinator] = controller
  root:addChild(controller)
  root.view:addSubview(controller.view)
  for i = first, last do
    local v = tk.View{ name = "v" .. i }
    v.traitOverrides[Model] = { view = v, index = i }
    controller.view:addSubview(v)
    if i == last then alive[v] = true; alive[controller] = true end
  end
  tk.update()
  assert(controller.view.subviews[1].traitCollection[Coordinator] == controller)
  controller.view:removeFromSuperview()
  controller:removeFromParent()
end

local warmup = math.max(batch, n // 2 // batch * batch)
for first = 1, warmup, batch do buildAndDrop(first, first + batch - 1) end
collectgarbage(); collectgarbage()
local baseline = collectgarbage("count")
for first = warmup + 1, n, batch do buildAndDrop(first, math.min(first + batch - 1, n)) end
collectgarbage(); collectgarbage()

local survivors = 0
for _ in pairs(alive) do survivors = survivors + 1 end
assert(survivors == 0, survivors .. " nodes survived collectgarbage()")
local grown = collectgarbage("count") - baseline
local allowed = 256 + (n - warmup) / 100
assert(grown < allowed, string.format("the Lua heap grew by %.0f KB over %d views after the warm-up (allowed %.0f)",
  grown, n - warmup, allowed))
