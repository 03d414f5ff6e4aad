-- Leak check (DESIGN.md §7): build and drop n views whose object-kind trait values point
-- back at them: a controller that hands itself down (controller -> override -> controller)
-- and a model table that refers to its view (view -> override -> model -> view). Override
-- values live in the traitOverrides proxy's user value, not in the registry, so each cycle
-- is plain Lua garbage: after collectgarbage() no view survives and the Lua heap is back at
-- its baseline (measured as churn.lua says).
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

local checkChurn = dofile((arg[0]:match("^(.*/)") or "") .. "churn.lua")
checkChurn(n, batch, buildAndDrop, alive)
