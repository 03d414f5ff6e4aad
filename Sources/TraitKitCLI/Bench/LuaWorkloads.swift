import CLua
import TraitKit
import TraitKitLua

/// The same workloads driven from Lua, and an idiomatic pure-Lua implementation of trait
/// propagation (tables chained by `__index`, changes found by walking the subtree) driven by
/// the same script in the same run (§6).
enum LuaWorkloads {
    static let script = #"""
    local tk = require "traitkit"
    local N, runs = ...
    N, runs = tonumber(N), tonumber(runs)
    local Theme = tk.defineTrait{ name = "BenchLuaTheme", values = {"a", "b", "c"}, default = "a" }
    local function median(t) table.sort(t) return t[(#t + 1) // 2], t[#t] - t[1] end
    -- The tree of BenchTree: fan-out cycling 2..20, one or two containers per container.
    local function shape(count, make, add)
      local nodes = { make() }
      local containers = { nodes[1] }
      local i, fan, nested = 1, 2, 1
      while #nodes < count do
        local parent = containers[i]; i = i + 1
        for k = 1, fan do
          if #nodes >= count then break end
          local node = make(); add(parent, node); nodes[#nodes + 1] = node
          if k <= nested then containers[#containers + 1] = node end
        end
        fan = fan == 20 and 2 or fan + 3
        nested = 3 - nested
      end
      return nodes
    end

    -- TraitKit driven from Lua
    local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
    local root = tk.ViewController{}
    window.rootViewController = root
    local views = shape(N, function() return tk.View{} end, function(p, c) p:addSubview(c) end)
    root.view:addSubview(views[1])
    tk.update()
    local fired = 0
    for k = 1, #views, 10 do views[k]:registerForTraitChanges({ Theme }, function() fired = fired + 1 end) end
    tk.update()
    local leaf = views[#views]
    local reads = {}
    -- Runs below 1 are warm-ups, not counted, as in the Swift workloads (`measure`): the
    -- first flush also gives the root view a slot of its own, once.
    for r = -1, runs do
      local t0 = os.clock(); local x
      for _ = 1, 100000 do x = leaf.traitCollection.BenchLuaTheme end
      if r > 0 then reads[#reads + 1] = (os.clock() - t0) / 100000 * 1e9 end
    end
    local function flushes()
      local times = {}
      for r = -1, runs do
        root.view.traitOverrides[Theme] = (r % 2 == 0) and "b" or "c"
        local t0 = os.clock(); tk.update()
        if r > 0 then times[#times + 1] = (os.clock() - t0) / N * 1e9 end
      end
      return times
    end
    results = {}
    results.engineRead, results.engineReadSpread = median(reads)
    results.engineFlush, results.engineFlushSpread = median(flushes())

    -- Pure Lua: traits inherit through __index chains; a change walks the subtree and calls
    -- the handlers of nodes whose value changed.
    local function newNode() return { children = {}, overrides = {}, traits = {}, seen = {}, handlers = nil } end
    local function attach(parent, child)
      child.parent = parent
      parent.children[#parent.children + 1] = child
      setmetatable(child.traits, { __index = parent.traits })
    end
    local nodes = shape(N, newNode, attach)
    nodes[1].traits.BenchLuaTheme = "a"
    local pureFired = 0
    for k = 1, #nodes, 10 do
      nodes[k].handlers = { function() pureFired = pureFired + 1 end }
      nodes[k].seen.BenchLuaTheme = nodes[k].traits.BenchLuaTheme
    end
    local function propagate(node, name)
      local handlers = node.handlers
      if handlers then
        local value = node.traits[name]
        if value ~= node.seen[name] then
          node.seen[name] = value
          for h = 1, #handlers do handlers[h](node) end
        end
      end
      local children = node.children
      for c = 1, #children do
        local child = children[c]
        if rawget(child.traits, name) == nil then propagate(child, name) end
      end
    end
    local pureLeaf = nodes[#nodes]
    local pureDepth, up = 0, pureLeaf
    while up do pureDepth, up = pureDepth + 1, up.parent end
    local preads, pflushes = {}, {}
    for r = -1, runs do
      local t0 = os.clock(); local x
      for _ = 1, 100000 do x = pureLeaf.traits.BenchLuaTheme end
      if r > 0 then preads[#preads + 1] = (os.clock() - t0) / 100000 * 1e9 end
    end
    for r = -1, runs do
      local t0 = os.clock()
      nodes[1].traits.BenchLuaTheme = (r % 2 == 0) and "b" or "c"
      propagate(nodes[1], "BenchLuaTheme")
      if r > 0 then pflushes[#pflushes + 1] = (os.clock() - t0) / N * 1e9 end
    end
    results.pureRead, results.pureReadSpread = median(preads)
    results.pureFlush, results.pureFlushSpread = median(pflushes)
    results.pureDepth = pureDepth
    """#

    /// Runs the script at `count` nodes; returns the figures it measured, or an error.
    static func run(count: Int, runs: Int) -> [String: Double]? {
        let runtime = LuaRuntime()
        if let error = runtime.run(chunk: script, name: "=bench", arguments: [String(count), String(runs)]) {
            printError("traitkit bench: \(error)")
            return nil
        }
        var figures: [String: Double] = [:]
        for key in ["engineRead", "engineReadSpread", "engineFlush", "engineFlushSpread", "pureRead",
                    "pureReadSpread", "pureFlush", "pureFlushSpread", "pureDepth"] {
            figures[key] = runtime.globalNumber(table: "results", key: key)
        }
        return figures
    }
}
