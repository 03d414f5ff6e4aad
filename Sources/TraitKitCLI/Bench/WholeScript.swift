import TraitKit
import TraitKitLua

/// The whole-script workload (§6): a configuration script as users write them — build a
/// tree, configure it, settle, toggle, read, tear down — run on TraitKit and on an idiomatic
/// pure-Lua implementation of the same API subset, driven by the same Lua code in one state,
/// on an API that does nothing (the driver's own cost), and on the bare C binding
/// (`CBareBinding`: what a binding pays with no engine behind it, its updates doing nothing).
/// Each phase is reported in ns per view, with the blocks Lua allocated per view and the
/// bytes the process's heap grew by per view outside Lua (Swift objects and arrays, mostly);
/// a run with the allocation counter preloaded also counts the blocks allocated outside Lua
/// (`AllocationCount`).
enum WholeScript {
    static let phases = ["build", "configure", "settle", "toggle", "read", "teardown"]

    static let script = #"""
local tk = require "traitkit"
local N, runs = ...
N, runs = tonumber(N), tonumber(runs)

-- An idiomatic pure-Lua implementation of the API subset the workload uses, as a Lua user
-- would write it: per-node tables, collections chained by __index, per-trait handler lists,
-- an update that walks the dirty subtrees, table.remove for removal.
local pure = {}
do
  local defaults = {}
  local View = {}
  View.__index = View
  local roots = setmetatable({}, { __mode = "k" })
  function pure.defineTrait(t)
    defaults[t.name] = t.default
    return t.name  -- a trait is its name: tc[Trait] and tc.Name are the same read
  end
  local function markDirty(node)
    node.dirty = true
    local up = node.parent
    while up and not up.subtreeDirty do up.subtreeDirty = true; up = up.parent end
  end
  local overridesMeta = {
    __newindex = function(proxy, name, value)
      local node = proxy[1]
      node.overrides[name] = value
      rawset(node.traitCollection, name, value)
      markDirty(node)
    end,
    __index = function(proxy, name) return proxy[1].overrides[name] end,
  }
  function pure.View(props)
    local node = setmetatable({ name = props and props.name, children = {}, overrides = {}, seen = {} }, View)
    node.traitCollection = setmetatable({}, { __index = defaults })
    node.traitOverrides = setmetatable({ node }, overridesMeta)
    return node
  end
  -- A root that updates reach (the window's root view).
  function pure.show(node) roots[node] = true; markDirty(node) end
  function View:addSubview(child)
    if child.parent then child:removeFromSuperview() end
    child.parent = self
    self.children[#self.children + 1] = child
    getmetatable(child.traitCollection).__index = self.traitCollection
    markDirty(child)
  end
  function View:removeFromSuperview()
    local parent = self.parent
    if not parent then return end
    local children = parent.children
    for i = 1, #children do
      if children[i] == self then table.remove(children, i) break end
    end
    self.parent = nil
    getmetatable(self.traitCollection).__index = defaults
  end
  function View:registerForTraitChanges(traits, handler)
    self.handlers = self.handlers or {}
    for _, name in ipairs(traits) do
      local list = self.handlers[name]
      if not list then list = {}; self.handlers[name] = list; self.seen[name] = self.traitCollection[name] end
      list[#list + 1] = handler
    end
  end
  local function visit(node, all)
    all = all or node.dirty
    local handlers = node.handlers
    if handlers and all then
      local tc, seen = node.traitCollection, node.seen
      for name, list in pairs(handlers) do
        local value = tc[name]
        if value ~= seen[name] then
          seen[name] = value
          for h = 1, #list do list[h](node) end
        end
      end
    end
    if all or node.subtreeDirty then
      local children = node.children
      for c = 1, #children do visit(children[c], all) end
    end
    node.dirty, node.subtreeDirty = false, false
  end
  function pure.update()
    for node in pairs(roots) do if node.dirty or node.subtreeDirty then visit(node, false) end end
  end
end

-- The driver alone: the same API with operations that do nothing, so what the script costs
-- by itself (its loops, its tables and strings) is known apart from what either side adds.
local driver = {}
do
  local View = { traitOverrides = {}, traitCollection = {} }
  View.__index = View
  function View.addSubview() end
  function View.removeFromSuperview() end
  function View.registerForTraitChanges() end
  function driver.View(props) return setmetatable(props or {}, View) end
  function driver.defineTrait(t) return t.name end
  function driver.show() end
  function driver.update() end
end

local engine = { View = tk.View, update = tk.update, defineTrait = tk.defineTrait }
function engine.show(view)
  local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
  window.rootViewController = tk.ViewController{}
  window.rootViewController.view:addSubview(view)
end

-- The bare C binding (CBareBinding): views, overrides and handlers kept as a C binding
-- keeps them, no updates, and one empty table for every view's collection.
local bare = {}
do
  local binding = bareBinding()
  bare.View = binding.View
  function bare.defineTrait(t) return binding.defineTrait(t.name) end
  function bare.show() end
  function bare.update() end
end

local clock = os.clock
local phases = { "build", "configure", "settle", "toggle", "read", "teardown" }

-- The workload, driven the same way for both: a tree of n named views, fan-out 4 to 8;
-- overrides on 30% of them (by trait object and by name); a registration on 10% whose handler
-- counts; an update; a root override toggled 10 times with updates; every view's collection
-- read twice; every view removed, and an update.
local function drive(api, n, label)
  local Theme = api.defineTrait{ name = "Whole" .. label .. "Theme", values = { "a", "b", "c" }, default = "a" }
  local density = "Whole" .. label .. "Density"
  api.defineTrait{ name = density, default = 0, kind = "integer" }
  local out, t0, lua0, bytes0, blocks0 = {}, 0, 0, 0, 0
  local function start() lua0, bytes0, blocks0 = allocations(); t0 = clock() end
  local function stop(phase)
    local t = clock() - t0
    local lua1, bytes1, blocks1 = allocations()
    out[phase] = { t / n * 1e9, (lua1 - lua0) / n, (bytes1 - bytes0) / n, (blocks1 - blocks0) / n }
  end
  start()
  local root = api.View{ name = "root" }
  local views, containers = { root }, { root }
  local ci, fan = 1, 4
  while #views < n do
    local parent = containers[ci]; ci = ci + 1
    for _ = 1, fan do
      if #views >= n then break end
      local v = api.View{ name = "v" .. #views }
      parent:addSubview(v)
      views[#views + 1] = v
      containers[#containers + 1] = v
    end
    fan = fan == 8 and 4 or fan + 1
  end
  api.show(root)
  stop("build")
  start()
  local fired = 0
  local function count() fired = fired + 1 end
  for i = 2, #views do
    local v = views[i]
    if i % 10 < 3 then
      if i % 2 == 0 then v.traitOverrides[Theme] = "b" else v.traitOverrides[density] = i % 5 end
    end
    if i % 10 == 5 then v:registerForTraitChanges({ Theme }, count) end
  end
  stop("configure")
  start(); api.update(); stop("settle")
  start()
  for k = 1, 10 do root.traitOverrides[Theme] = (k % 2 == 0) and "b" or "c"; api.update() end
  stop("toggle")
  start()
  local x
  for i = 1, #views do local tc = views[i].traitCollection; x = tc[Theme]; x = tc[Theme] end
  stop("read")
  start()
  for i = #views, 2, -1 do views[i]:removeFromSuperview() end
  api.update()
  stop("teardown")
  out.fired = fired
  return out
end

local function median(xs) table.sort(xs) return xs[(#xs + 1) // 2] end

-- The sides take turns, run by run: a machine whose speed drifts (a shared host) then slows
-- all alike instead of whichever side ran in the slow stretch.
local sides = { { "tk", engine }, { "pure", pure }, { "driver", driver }, { "bare", bare } }
local samples = { tk = {}, pure = {}, driver = {}, bare = {} }
for r = 1, runs do
  for _, side in ipairs(sides) do
    collectgarbage(); collectgarbage()
    samples[side[1]][r] = drive(side[2], N, side[1])  -- later runs get the same traits back
  end
end
results = {}
for _, side in ipairs(sides) do
  local name = side[1]
  for _, phase in ipairs(phases) do
    for k, what in ipairs{ "", ".lua", ".bytes", ".blocks" } do
      local xs = {}
      for r = 1, runs do xs[r] = samples[name][r][phase][k] end
      results[name .. "." .. phase .. what] = median(xs)
    end
  end
  results[name .. ".fired"] = samples[name][1].fired
end
"""#

    /// Runs the workload `runs` times per side at `count` views; the medians by key
    /// (`tk.build`, `pure.read.lua`, ...), or nil after printing the script's error.
    static func run(count: Int, runs: Int) -> [String: Double]? {
        let runtime = LuaRuntime()
        AllocationCount.provide(to: runtime)
        BareBinding.provide(to: runtime)
        if let error = runtime.run(chunk: script, name: "=whole script", arguments: [String(count), String(runs)]) {
            printError("traitkit bench: \(error)")
            return nil
        }
        var figures: [String: Double] = [:]
        for side in ["tk", "pure", "driver", "bare"] {
            for phase in phases {
                for what in ["", ".lua", ".bytes", ".blocks"] {
                    figures["\(side).\(phase)\(what)"] = runtime.globalNumber(table: "results", key: "\(side).\(phase)\(what)")
                }
            }
        }
        return figures
    }
}
