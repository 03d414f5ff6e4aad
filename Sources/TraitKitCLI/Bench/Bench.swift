import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import TraitKit

/// `traitkit bench [--json] [--quick]`: the performance figures of DESIGN.md §6, each printed
/// with the comparison it is measured against in the same run and whether it meets its target.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure TraitKit's performance against its targets (use a release build).",
        discussion: """
            Each figure is printed with its target and with what it is compared against in the \
            same run: trait reads from Swift and from Lua, propagating one override through \
            trees of 1k, 10k and 100k nodes (with and without a million unrelated \
            registrations), memory per view, single operations (constructors, addSubview, \
            overrides, registrations, tc[Trait]) at 1k and 100k siblings, next to a bare C \
            binding of the same calls with no engine behind it, and whole scripts \
            (build, configure, settle, toggle, read, tear down) next to an idiomatic pure-Lua \
            implementation of the same API and to the same script on an API that does nothing; \
            and the start-up of `traitkit run` against `lua5.4`'s. \
            A figure that misses its target says so, with the reason. Scripts/bench builds in \
            release mode and runs it; docs/performance.md explains how to read the output.
            """)

    @Flag(help: "Print one JSON object per figure.")
    var json = false

    @Flag(help: "Fewer runs and only the 10k-node tree, judged against the 100k targets (a smoke run).")
    var quick = false

    /// The child that counts allocations (`AllocationCount.inChild`): one whole-script run per
    /// size and one of the single operations, printing `workload<tab>key<tab>value` for each.
    @Option(help: .hidden)
    var countAllocations: String?

    func run() throws {
        if let countAllocations {
            try countAllocationsInChild(sizes: countAllocations.split(separator: ",").compactMap { Int($0) })
            return
        }
        #if DEBUG
        printError("traitkit bench: this is a debug build, so the figures say little about TraitKit; "
            + "run Scripts/bench (a release build) for figures to compare with the targets")
        #endif
        let runs = quick ? 3 : 7
        let sizes = quick ? [10_000] : [1_000, 10_000, 100_000]
        var figures = readFigures(BenchTree(count: 1_000), runs: runs)
        var smallest: (size: Int, luaFlush: Double)?
        for size in sizes {
            let tree = BenchTree(count: size)
            let swift = treeFigures(tree, runs: runs)
            let lua = luaFigures(size: size, swiftWalk: swift.flush, swiftHandlers: swift.withHandlers,
                                 smallest: smallest, runs: runs)
            if smallest == nil, let flush = lua.flush { smallest = (size, flush) }
            figures += size == sizes.last ? swift.figures + lua.figures : (swift.figures + lua.figures).map(\.unjudged)
        }
        figures += memoryFigures()
        let counting = AllocationCount.inChild(sizes: sizes)
        if case .failure(let error) = counting {
            printError("traitkit bench: allocations outside Lua not counted: \(error)")
        }
        let counts = try? counting.get()
        figures += singleOpFigures(runs: quick ? 1 : 3, counts: counts?["single"])
        for size in sizes {
            figures += wholeScriptFigures(size: size, runs: quick ? 1 : wholeScriptRuns(size), blocks: counts?[String(size)])
        }
        print(json ? BenchReport.json(figures) : BenchReport.table(figures))
    }

    /// The counting child's work: the whole script once per size, with the blocks allocated
    /// outside Lua per view of each phase, and the single operations once, with the blocks per
    /// operation by Lua and outside Lua, printed for the parent.
    private func countAllocationsInChild(sizes: [Int]) throws {
        guard AllocationCount.blocks() != nil else {
            printError("traitkit bench: --count-allocations needs \(AllocationCount.library) in LD_PRELOAD")
            throw ExitCode.failure
        }
        for size in sizes {
            guard let r = WholeScript.run(count: size, runs: 1) else { throw ExitCode.failure }
            for (key, value) in r.sorted(by: { $0.key < $1.key }) where key.hasSuffix(".blocks") { print("\(size)\t\(key)\t\(value)") }
        }
        guard let r = SingleOps.run(runs: 1, countingAllocations: true) else { throw ExitCode.failure }
        for (key, value) in r.sorted(by: { $0.key < $1.key }) where key.hasSuffix(".lua") || key.hasSuffix(".blocks") {
            print("single\t\(key)\t\(value)")
        }
    }

    /// Reads of one node's collection in a loop: they do not depend on the tree's size.
    private func readFigures(_ tree: BenchTree, runs: Int) -> [Figure] {
        let hot = SwiftWorkloads.readHot(tree, runs: runs)
        let dictionary = SwiftWorkloads.readDictionary(runs: runs)
        let typed = SwiftWorkloads.readTyped(tree, runs: runs)
        return [
            Figure(name: "swift read, hot", unit: "ns/read", value: hot.0, spread: hot.1, comparisonName: "dictionary store",
                   comparison: dictionary.0, target: "<= 3", meetsTarget: hot.0 <= 3)
                .explained(MissReasons.hotRead(dictionary: dictionary.0)),
            Figure(name: "swift read, typed (tc[MyTrait.self])", unit: "ns/read", value: typed.0, spread: typed.1,
                   comparisonName: "by trait object", comparison: hot.0, target: nil, meetsTarget: nil),
        ]
    }

    /// The Swift workloads on one tree: cold reads, flushes plain, shielded, with unrelated
    /// registrations and with registrations that fire.
    private func treeFigures(_ tree: BenchTree, runs: Int) -> (figures: [Figure], flush: Double, withHandlers: Double) {
        let size = tree.views.count, depth = tree.depth
        let cold = SwiftWorkloads.readCold(tree, runs: runs)
        let flush = SwiftWorkloads.flush(tree, runs: runs)
        let shielded = SwiftWorkloads.flushShielded(tree, runs: runs)
        let count = quick ? 100_000 : 1_000_000
        let unrelated = SwiftWorkloads.unrelatedRegistrationsOverhead(tree, count: count, runs: runs)
        let perCallback = SwiftWorkloads.firedCallbacks(tree, count: 10_000, runs: runs)
        let withHandlers = SwiftWorkloads.flushWithHandlers(tree, every: 10, runs: runs)
        let figures = [
            Figure(name: "swift read, cold (random nodes)", nodes: size, depth: depth, unit: "ns/read", value: cold.0,
                   spread: cold.1, comparisonName: "-", comparison: nil, target: nil, meetsTarget: nil),
            Figure(name: "swift flush", nodes: size, depth: depth, unit: "ns/node", value: flush.0, spread: flush.1,
                   comparisonName: "µs per update", comparison: flush.0 * Double(size) / 1000, target: "<= 10",
                   meetsTarget: flush.0 <= 10)
                .explained(MissReasons.flush(spread: flush.1)),
            // Judged on the whole update: per unshielded node, a flush of constant cost looks
            // twice as dear when half the tree is shielded. The update may add the walk down to
            // the overriding node (a few visits, well under 1 µs), never a cost per node below it.
            Figure(name: "swift flush, overriding subtree", nodes: size, depth: depth, unit: "ns/unshielded node",
                   value: shielded.perNode, spread: shielded.spread, comparisonName: "no override", comparison: flush.0,
                   target: "the subtree costs nothing: update <= no override + 10% + 1 µs",
                   meetsTarget: shielded.perNode * Double(shielded.unshielded) <= flush.0 * Double(size) * 1.1 + 1000)
                .explained(MissReasons.shielded(spread: shielded.spread)),
            Figure(name: "swift flush, \(count == 1_000_000 ? "1M" : "100k") unrelated registrations", nodes: size,
                   depth: depth, unit: "% added", value: unrelated.overhead, spread: unrelated.spread, comparisonName: "ns/node with them",
                   comparison: unrelated.withRegistrations, target: "<= 5", meetsTarget: unrelated.overhead <= 5)
                .explained(MissReasons.unrelatedRegistrations(middleSpread: unrelated.middleSpread)),
            Figure(name: "swift fired callback (10k registrations)", nodes: size, depth: depth, unit: "ns/callback",
                   value: perCallback.0, spread: perCallback.1, comparisonName: "-", comparison: nil, target: nil, meetsTarget: nil),
            Figure(name: "swift flush, Swift handlers on every 10th node", nodes: size, depth: depth, unit: "ns/node",
                   value: withHandlers.0, spread: withHandlers.1, comparisonName: "-", comparison: nil, target: nil,
                   meetsTarget: nil),
        ]
        return (figures, flush.0, withHandlers.0)
    }

    /// Reads and flushes driven from Lua, against the pure-Lua implementation in the same run;
    /// `smallest` is the Lua flush on the smallest tree of this run, for the reason of a miss.
    private func luaFigures(size: Int, swiftWalk: Double, swiftHandlers: Double, smallest: (size: Int, luaFlush: Double)?,
                            runs: Int) -> (figures: [Figure], flush: Double?) {
        guard let lua = LuaWorkloads.run(count: size, runs: runs) else { return ([], nil) }
        let read = lua["engineRead"] ?? 0, pureRead = lua["pureRead"] ?? 0
        let flush = lua["engineFlush"] ?? 0, pureFlush = lua["pureFlush"] ?? 0
        let chain = Int(lua["pureDepth"] ?? 0)
        let figures = [
            Figure(name: "lua read (node.traitCollection.T)", nodes: size, unit: "ns/read", value: read,
                   spread: lua["engineReadSpread"] ?? 0, comparisonName: "pure Lua __index chain of \(chain) tables",
                   comparison: pureRead,
                   target: "<= 100 and 3x faster than pure Lua", meetsTarget: read <= 100 && read * 3 <= pureRead)
                .explained(MissReasons.luaRead(read, pure: pureRead)),
            Figure(name: "lua flush with Lua handlers", nodes: size, unit: "ns/node", value: flush,
                   spread: lua["engineFlushSpread"] ?? 0, comparisonName: "pure Lua propagation", comparison: pureFlush,
                   target: "10x faster than pure Lua", meetsTarget: flush * 10 <= pureFlush)
                .explained(MissReasons.luaFlush(flush, pure: pureFlush, spread: lua["engineFlushSpread"] ?? 0,
                                                swiftWalk: swiftWalk, swiftHandlers: swiftHandlers,
                                                smallest: smallest.map { ($0.size, $0.luaFlush) })),
        ]
        return (figures, flush)
    }

    /// Runs a side of the whole script per size: a run at 1k views lasts a few milliseconds, where
    /// one slow stretch of a shared host decides a phase, so small sizes take more of them.
    private func wholeScriptRuns(_ size: Int) -> Int {
        size >= 100_000 ? 3 : size >= 10_000 ? 5 : 15
    }

    /// The whole-script workload's phases and total against pure Lua, in ns per view, each
    /// phase with its allocations per view, by Lua and outside Lua (`blocks`, the counting
    /// child's, when it ran). Then the driver alone, on an API that does nothing: what neither
    /// side can go below; and the bare C binding, which does no engine work, against what 3x
    /// pure Lua allows.
    private func wholeScriptFigures(size: Int, runs: Int, blocks: [String: Double]?) -> [Figure] {
        guard let r = WholeScript.run(count: size, runs: runs) else { return [] }
        var figures: [Figure] = []
        var total = 0.0, pureTotal = 0.0, driverTotal = 0.0, bareTotal = 0.0
        for phase in WholeScript.phases {
            let tk = r["tk.\(phase)"] ?? 0, pure = r["pure.\(phase)"] ?? 0, bare = r["bare.\(phase)"] ?? 0
            total += tk
            pureTotal += pure
            driverTotal += r["driver.\(phase)"] ?? 0
            bareTotal += bare
            figures.append(Figure(name: "whole script: \(phase)", nodes: size, unit: "ns/view",
                                  value: tk, spread: 0, comparisonName: "pure Lua", comparison: pure,
                                  target: "faster than pure Lua", meetsTarget: tk < pure,
                                  allocations: Allocations(per: "view", lua: r["tk.\(phase).lua"] ?? 0,
                                                           outsideLua: blocks?["tk.\(phase).blocks"],
                                                           bytesOutsideLua: r["tk.\(phase).bytes"] ?? 0,
                                                           pureLua: r["pure.\(phase).lua"] ?? 0,
                                                           pureOutsideLua: blocks?["pure.\(phase).blocks"]),
                                  bare: bare)
                .explained(MissReasons.wholeScript(phase: phase) + MissReasons.phaseAgainstBareBinding(tk, bare: bare, pure: pure)))
        }
        figures.append(Figure(name: "whole script: total", nodes: size, unit: "ns/view", value: total, spread: 0,
                              comparisonName: "pure Lua", comparison: pureTotal,
                              target: "3x faster than pure Lua", meetsTarget: total * 3 <= pureTotal)
            .explained(MissReasons.wholeScriptTotal(total, pure: pureTotal, driver: driverTotal, bare: bareTotal,
                                                    updates: (r["tk.settle"] ?? 0) + (r["tk.toggle"] ?? 0),
                                                    build: r["tk.build"] ?? 0, pureBuild: r["pure.build"] ?? 0)))
        figures.append(Figure(name: "whole script: the driver alone (an API that does nothing)", nodes: size,
                              unit: "ns/view", value: driverTotal, spread: 0, comparisonName: "-", comparison: nil,
                              target: nil, meetsTarget: nil))
        figures.append(Figure(name: "whole script: the bare C binding (no engine: no updates, one empty collection)",
                              nodes: size, unit: "ns/view", value: bareTotal, spread: 0, comparisonName: "pure Lua / 3",
                              comparison: pureTotal / 3, target: nil, meetsTarget: nil))
        return figures
    }

    /// Each everyday operation against its target and the bare C binding (`CBareBinding`: what
    /// any binding pays on this machine); `tc[Trait]` against `tc.Name`; a pure-Lua
    /// loop in a TraitKit state, and the tool's start-up, against the stock interpreter.
    private func singleOpFigures(runs: Int, counts: [String: Double]?) -> [Figure] {
        guard let r = SingleOps.run(runs: runs) else { return [] }
        var figures = SingleOps.figures.map { name, key, target in
            // The bare binding's traits are names: its by-name figures stand for both forms.
            let value = r[key] ?? 0, bare = r["bare." + key.replacing("trait object", with: "name")]
            return Figure(name: "single operation: \(name)", unit: "ns/op", value: value, spread: 0,
                          comparisonName: bare == nil ? "-" : "bare C binding", comparison: bare,
                          target: target.map { "<= \(Int($0))" },
                          meetsTarget: target.map { value <= $0 },
                          allocations: counts.map {
                              Allocations(per: "op", lua: $0[key + ".lua"] ?? 0, outsideLua: $0[key + ".blocks"] ?? 0)
                          })
                .explained(MissReasons.singleOperation(key)
                    + MissReasons.againstBareBinding(value, bare: bare, target: target))
        }
        let byObject = r["tc[Trait]"] ?? 0, byName = r["tc.Name"] ?? 0
        figures.append(Figure(name: "single operation: tc[Trait]", unit: "ns/read", value: byObject, spread: 0,
                              comparisonName: "tc.Name", comparison: byName, target: "within 10% of tc.Name",
                              meetsTarget: byObject <= byName * 1.1)
            .explained(MissReasons.singleOperation("tc[Trait]")))
        let loop = SingleOps.pureLuaLoop()
        figures.append(Figure(name: "pure-Lua loop under traitkit run, no limits", unit: "s", value: loop.traitkit,
                              spread: 0, comparisonName: Self.luaComparison(loop.lua),
                              comparison: loop.lua, target: "within 5% of lua5.4",
                              meetsTarget: loop.lua.map { loop.traitkit <= $0 * 1.05 })
            .explained(MissReasons.singleOperation("loop")))
        let start = SingleOps.startUp(runs: runs * 7)
        figures.append(Figure(name: "start-up: traitkit run of an empty script", unit: "ms", value: start.traitkit,
                              spread: 0, comparisonName: Self.luaComparison(start.lua),
                              comparison: start.lua, target: nil, meetsTarget: nil))
        return figures
    }

    /// The name of a comparison with the stock interpreter: what to install when there was
    /// none to time (`measured` nil).
    private static func luaComparison(_ measured: Double?) -> String {
        measured == nil ? "lua5.4 not in PATH (apt-get install lua5.4)" : "lua5.4"
    }

    /// Bytes per view from the allocator, 100k views.
    private func memoryFigures() -> [Figure] {
        let plain = SwiftWorkloads.bytesPerView(count: 100_000, overrides: 0, registrations: 0)
        let overridden = SwiftWorkloads.bytesPerView(count: 100_000, overrides: 2, registrations: 0)
        let registered = SwiftWorkloads.bytesPerView(count: 100_000, overrides: 0, registrations: 2)
        return [
            Figure(name: "memory per view", unit: "bytes", value: plain, spread: 0, comparisonName: "with 2 overrides",
                   comparison: overridden, target: "<= 256", meetsTarget: plain <= 256),
            Figure(name: "memory per view, 2 registrations", unit: "bytes", value: registered, spread: 0,
                   comparisonName: "-", comparison: nil, target: nil, meetsTarget: nil),
        ]
    }
}

enum BenchReport {
    static func table(_ figures: [Figure]) -> String {
        var lines = ["figure | value | spread | comparison | target"]
        for f in figures {
            let compared = f.comparison.map { "\(f.comparisonName): \(format($0))" } ?? f.unmeasuredComparison
            let comparison = [compared, f.bare.map { "bare C binding: \(format($0))" }]
                .compactMap { $0 }.joined(separator: "; ")
            let verdict = f.meetsTarget.map { $0 ? "met" : "MISSED" } ?? (f.target == nil ? "" : "not judged")
            lines.append("\(f.label(withAllocations: true)) | \(format(f.value)) \(f.unit) | \(format(f.spread)) | \(comparison) | \(f.target ?? "") \(verdict)")
        }
        let missed = figures.filter { $0.reason != nil }
        if !missed.isEmpty {
            lines.append("")
            lines.append("why MISSED (docs/performance.md says more):")
            for f in missed { lines.append("- \(f.label(withAllocations: true)): \(f.reason!)") }
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ figures: [Figure]) -> String {
        JSON.array(figures.map { f in
            var pairs: [(String, JSON)] = [("name", .string(f.label))]
            if let n = f.nodes { pairs.append(("nodes", .integer(n))) }
            if let d = f.depth { pairs.append(("depth", .integer(d))) }
            pairs += [("unit", .string(f.unit)), ("value", .number(f.value)), ("spread", .number(f.spread))]
            if let c = f.comparison {
                pairs.append(("comparison", .object([("name", .string(f.comparisonName)), ("value", .number(c))])))
            } else if let name = f.unmeasuredComparison {
                pairs.append(("comparison", .object([("name", .string(name))])))
            }
            if let b = f.bare { pairs.append(("bare", .number(b))) }
            if let t = f.target { pairs.append(("target", .string(t))) }
            if let m = f.meetsTarget { pairs.append(("meetsTarget", .bool(m))) }
            if let r = f.reason { pairs.append(("reason", .string(r))) }
            if let a = f.allocations { pairs.append(("allocations", a.json)) }
            return JSON.object(pairs)
        }).serialized(indent: 2)
    }

    /// One decimal; two significant digits below 1, where a flush per node now lands.
    static func format(_ x: Double) -> String {
        let scale = abs(x) < 1 && x != 0 ? pow(10, 1 - floor(log10(abs(x)))) : 10
        return formatNumber((x * scale).rounded() / scale)
    }
}
