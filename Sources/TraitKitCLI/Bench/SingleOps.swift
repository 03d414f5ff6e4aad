import CLua
import Glibc
import TraitKit
import TraitKitLua

/// The everyday operations of a configuration script one by one (§6), each timed over many
/// calls with the collector stopped, at 1k and 100k siblings where the count matters, and
/// again on the bare C binding (`CBareBinding`) in the same state; a pure-Lua loop under
/// `traitkit run` against the `lua5.4` interpreter; and both tools' start-up.
enum SingleOps {
    static let script = #"""
local tk = require "traitkit"
local clock = os.clock
local M = 20000
results = {}
-- allocations() is there in the run that counts them (AllocationCount), outside the timing.
local allocations = allocations
local function time(name, count, body)
  collectgarbage(); collectgarbage("stop")
  local lua0, _, blocks0 = 0, 0, 0
  if allocations then lua0, _, blocks0 = allocations() end
  local t0 = clock()
  body()
  results[name] = (clock() - t0) / count * 1e9
  if allocations then
    local lua1, _, blocks1 = allocations()
    results[name .. ".lua"], results[name .. ".blocks"] = (lua1 - lua0) / count, (blocks1 - blocks0) / count
  end
  collectgarbage("restart")
end

-- TraitKit and the bare C binding (CBareBinding: the same calls, no engine behind them), each
-- with View, a color, a trait name and update; the bare binding's figures are keyed "bare.".
local Theme = tk.defineTrait{ name = "SingleOpTheme", values = { "a", "b" }, default = "a" }
local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
window.rootViewController = tk.ViewController{}
local bare = bareBinding()
local sides = {
  { prefix = "", View = tk.View, color = tk.Color.systemBlue, name = "SingleOpTheme", trait = Theme,
    root = window.rootViewController.view, update = tk.update },
  { prefix = "bare.", View = bare.View, color = bare.color, name = bare.defineTrait("SingleOpTheme"),
    root = bare.View{}, update = function() end },
}
sides[2].trait = sides[2].name

-- Times the operation `prepare(side)` returns on each side in turn, so that both run on a
-- heap in the same state.
local function each(name, count, prepare)
  for _, side in ipairs(sides) do time(side.prefix .. name, count, prepare(side)) end
end

-- Both start on a heap grown once: a process's first allocations fault its pages in.
for _, side in ipairs(sides) do
  local keep = {}
  for i = 1, M do keep[i] = side.View{ name = "x", backgroundColor = side.color } end
end
each("View{}", M, function(side) local keep = {} return function() for i = 1, M do keep[i] = side.View{} end end end)
each("View{name}", M, function(side)
  local keep = {} return function() for i = 1, M do keep[i] = side.View{ name = "x" } end end
end)
each("View{name, 2 fields}", M, function(side)
  local keep, View, color = {}, side.View, side.color
  return function() for i = 1, M do keep[i] = View{ name = "x", backgroundColor = color, tintColor = color } end end
end)
for _, S in ipairs{ 1000, 100000 } do
  for _, side in ipairs(sides) do
    side.parent, side.children, side.extra = side.View{}, {}, {}
    for i = 1, S do side.children[i] = side.View{}; side.parent:addSubview(side.children[i]) end
    for i = 1, 1000 do side.extra[i] = side.View{} end
  end
  each("addSubview@" .. S, 1000, function(side)
    return function() for i = 1, 1000 do side.parent:addSubview(side.extra[i]) end end
  end)
  each("removeFromSuperview@" .. S, 1000, function(side)
    local step = S // 1000
    return function() for i = 1, 1000 do side.children[(i - 1) * step + 1]:removeFromSuperview() end end
  end)
  -- Views in no hierarchy yet, as for addSubview: the views added above are the parent's
  -- already, and putting one of them first would time a removal and an insertion.
  local parent, front = sides[1].parent, {}
  for i = 1, 1000 do front[i] = tk.View{} end
  time("insertSubview@" .. S, 1000, function() for i = 1, 1000 do parent:insertSubview(front[i], 1) end end)
end
for _, side in ipairs(sides) do
  side.parent, side.children, side.extra, side.views, side.fetched = nil, nil, nil, {}, {}
  for i = 1, M do side.views[i] = side.View{}; side.root:addSubview(side.views[i]) end
  side.update()
end
local function overrides(side, value)
  local views, name = side.views, side.name
  return function() for i = 1, M do views[i].traitOverrides[name] = value end end
end
local function fetch(side)
  local views, fetched = side.views, side.fetched
  return function() for i = 1, M do fetched[i] = views[i].traitOverrides end end
end
each("traitOverrides fetch", M, fetch)
each("traitOverrides fetch again", M, fetch)
each("override set by name", M, function(side) return overrides(side, "b") end)
for _, side in ipairs(sides) do side.update() end
each("override remove by name", M, function(side) return overrides(side, nil) end)
tk.update()
-- The trait-object forms in the state the name forms ran in: on views that never had an
-- override (a view's first one makes its storage), their overrides fetched, the removal
-- after an update.
local fresh = {}
for i = 1, M do fresh[i] = tk.View{}; sides[1].root:addSubview(fresh[i]); local _ = fresh[i].traitOverrides end
tk.update()
time("override set by trait object", M, function() for i = 1, M do fresh[i].traitOverrides[Theme] = "b" end end)
tk.update()
time("override remove by trait object", M, function() for i = 1, M do fresh[i].traitOverrides[Theme] = nil end end)
for i = 1, M do fresh[i]:removeFromSuperview() end
fresh = nil
tk.update()
local views = sides[1].views
for i = 1, M do views[i].traitOverrides[Theme] = "b" end
time("update after an override on every view", M, function() tk.update() end)
each("registerForTraitChanges", M, function(side)
  local function nothing() end
  local views, trait = side.views, side.trait
  return function() for i = 1, M do views[i]:registerForTraitChanges({ trait }, nothing) end end
end)
local tc = views[1].traitCollection
local x
for _ = 1, 20 do x = tc[Theme]; x = tc.SingleOpTheme end
time("tc[Trait]", 2000000, function() for _ = 1, 2000000 do x = tc[Theme] end end)
time("tc.Name", 2000000, function() for _ = 1, 2000000 do x = tc.SingleOpTheme end end)
"""#

    /// (figure name, result key, target in ns) in the order printed.
    static let figures: [(String, String, Double?)] = [
        ("tk.View{}", "View{}", 400), ("tk.View{ name = ... }", "View{name}", 400),
        ("tk.View{ name, backgroundColor, tintColor }", "View{name, 2 fields}", 600),
        ("addSubview, 1k siblings", "addSubview@1000", 200), ("addSubview, 100k siblings", "addSubview@100000", 200),
        ("insertSubview at 1, 1k siblings", "insertSubview@1000", 200),
        ("insertSubview at 1, 100k siblings", "insertSubview@100000", 200),
        ("removeFromSuperview, 1k siblings", "removeFromSuperview@1000", 200),
        ("removeFromSuperview, 100k siblings", "removeFromSuperview@100000", 200),
        ("v.traitOverrides[Trait] = x", "override set by trait object", 200),
        ("v.traitOverrides[Trait] = nil", "override remove by trait object", 200),
        ("v.traitOverrides.Name = x", "override set by name", 200),
        ("v.traitOverrides.Name = nil", "override remove by name", 200),
        ("fetching v.traitOverrides", "traitOverrides fetch", 60),
        ("fetching v.traitOverrides again", "traitOverrides fetch again", 60),
        ("registerForTraitChanges", "registerForTraitChanges", 400),
        ("tk.update() after an override on each view (per view)", "update after an override on every view", 250),
    ]

    /// The medians over `runs` runs of the script, by key; nil after printing its error. With
    /// `countingAllocations`, also the blocks per operation by Lua (`View{}.lua`) and outside
    /// Lua (`View{}.blocks`, 0 unless the allocation counter is preloaded).
    static func run(runs: Int, countingAllocations: Bool = false) -> [String: Double]? {
        var samples: [String: [Double]] = [:]
        for _ in 0..<runs {
            let runtime = LuaRuntime()
            if countingAllocations { AllocationCount.provide(to: runtime) }
            BareBinding.provide(to: runtime)
            if let error = runtime.run(chunk: script, name: "=single operations") {
                printError("traitkit bench: \(error)")
                return nil
            }
            let keys = figures.map(\.1).flatMap { countingAllocations ? [$0, $0 + ".lua", $0 + ".blocks"] : [$0, "bare." + $0] }
            for key in keys + ["tc[Trait]", "tc.Name"] {
                if let value = runtime.globalNumber(table: "results", key: key) { samples[key, default: []].append(value) }
            }
        }
        return samples.mapValues(median)
    }

    static let loop = """
        local t = {}
        for i = 1, 2000000 do t[#t % 1000 + 1] = { i, tostring(i % 100) } end
        local s = 0
        for i = 1, 20000000 do s = s + (i % 7) * 2 end
        """

    /// Seconds for `traitkit run` of a file holding `loop`, without limit options, and for
    /// `lua5.4` running the same file (nil when that interpreter is not in $PATH): medians of
    /// five, each a fresh process, as a user runs a script. (Timed inside this process, the
    /// loop would allocate in a heap every workload before it has grown.)
    static func pureLuaLoop() -> (traitkit: Double, lua: Double?) {
        guard let path = temporaryFile(loop, suffix: ".lua") else { return (0, nil) }
        defer { unlink(path) }
        return againstLua(runs: 5, lua: [path]) { timeProcess(["/proc/self/exe", "run", path]) }
    }

    /// A new file in $TMPDIR (else /tmp) holding `text`; nil when it cannot be written.
    private static func temporaryFile(_ text: String, suffix: String) -> String? {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((folder + "/traitkit-bench-XXXXXX" + suffix).utf8CString)
        let fd = mkstemps(&template, Int32(suffix.utf8.count))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            unlink(path)
            return nil
        }
        return path
    }

    /// Milliseconds from starting `traitkit run` on an empty script (this binary) to its exit,
    /// and the same for `lua5.4` (nil when not in $PATH): medians of `runs`.
    static func startUp(runs: Int) -> (traitkit: Double, lua: Double?) {
        let seconds = againstLua(runs: runs, lua: ["/dev/null"]) { timeProcess(["/proc/self/exe", "run", "/dev/null"]) }
        return (seconds.traitkit * 1000, seconds.lua.map { $0 * 1000 })
    }

    /// Seconds: the medians of `runs` timings of `traitkit` and of `lua5.4 luaArguments`, run
    /// alternately so that a host whose speed drifts slows both alike (0 when `traitkit` never
    /// ran; nil for `lua5.4` when it is not in $PATH).
    private static func againstLua(runs: Int, lua luaArguments: [String],
                                   _ traitkit: () -> Double?) -> (traitkit: Double, lua: Double?) {
        var inside: [Double] = [], outside: [Double] = []
        let lua = executableInPath("lua5.4")
        for _ in 0..<runs {
            if let seconds = traitkit() { inside.append(seconds) }
            if let lua, let seconds = timeProcess([lua] + luaArguments) { outside.append(seconds) }
        }
        return (inside.isEmpty ? 0 : median(inside), outside.isEmpty ? nil : median(outside))
    }

    /// The first executable `name` in $PATH, as a shell would find it; nil when there is none.
    private static func executableInPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// The middle sample (the upper one of an even count).
    private static func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

    /// Seconds from starting `arguments[0]` with `arguments` to its exit; nil when it cannot start.
    private static func timeProcess(_ arguments: [String]) -> Double? {
        let begin = now()
        guard let pid = spawn(arguments) else { return nil }
        _ = waitForExit(pid)
        return Double(now() - begin) / 1e9
    }
}
