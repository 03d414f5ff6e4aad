import ArgumentParser
import TraitKit

/// `traitkit bench [--json] [--quick]`: the performance figures of DESIGN.md §6, each printed
/// with the comparison it is measured against in the same run and whether it meets its target.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Measure the §6 performance figures (build with -c release).")

    @Flag(help: "Print one JSON object per figure.")
    var json = false

    @Flag(help: "Fewer runs and only the 10k-node tree (seconds instead of a minute).")
    var quick = false

    func run() throws {
        let runs = quick ? 3 : 7
        let sizes = quick ? [10_000] : [1_000, 10_000, 100_000]
        var figures: [Figure] = []
        let big = BenchTree(count: sizes.last!)

        let hot = SwiftWorkloads.readHot(big, runs: runs)
        let dictionary = SwiftWorkloads.readDictionary(runs: runs)
        figures.append(Figure(name: "swift read, hot", unit: "ns/read", value: hot.0, spread: hot.1,
                              comparisonName: "dictionary store", comparison: dictionary.0, target: "<= 3", meetsTarget: hot.0 <= 3))
        let typed = SwiftWorkloads.readTyped(big, runs: runs)
        figures.append(Figure(name: "swift read, typed (tc[MyTrait.self])", unit: "ns/read", value: typed.0, spread: typed.1,
                              comparisonName: "by trait object", comparison: hot.0, target: nil, meetsTarget: nil))
        let cold = SwiftWorkloads.readCold(big, runs: runs)
        figures.append(Figure(name: "swift read, cold (random nodes, \(big.views.count))", unit: "ns/read", value: cold.0,
                              spread: cold.1, comparisonName: "hot read", comparison: hot.0, target: nil, meetsTarget: nil))
        for size in sizes {
            let tree = size == big.views.count ? big : BenchTree(count: size)
            let flush = SwiftWorkloads.flush(tree, runs: runs)
            figures.append(Figure(name: "swift flush, \(size) nodes (depth \(tree.depth))", unit: "ns/node", value: flush.0,
                                  spread: flush.1, comparisonName: "-", comparison: nil, target: "<= 10",
                                  meetsTarget: flush.0 <= 10))
        }
        let plain = SwiftWorkloads.flush(big, runs: runs)
        let shielded = SwiftWorkloads.flushShielded(big, runs: runs)
        figures.append(Figure(name: "swift flush, overriding subtree", unit: "ns/unshielded node", value: shielded.0,
                              spread: shielded.1, comparisonName: "no override", comparison: plain.0, target: "<= 10",
                              meetsTarget: shielded.0 <= 10))
        let unrelated = SwiftWorkloads.unrelatedRegistrationsOverhead(big, count: quick ? 100_000 : 1_000_000, runs: runs)
        figures.append(Figure(name: "swift flush, \(quick ? "100k" : "1M") unrelated registrations", unit: "% added",
                              value: unrelated.overhead, spread: unrelated.spread, comparisonName: "ns/node with them",
                              comparison: unrelated.withRegistrations, target: "<= 5", meetsTarget: unrelated.overhead <= 5))
        let perCallback = SwiftWorkloads.firedCallbacks(big, count: 10_000, runs: runs)
        figures.append(Figure(name: "swift fired callback (10k registrations)", unit: "ns/callback", value: perCallback.0,
                              spread: perCallback.1, comparisonName: "-", comparison: nil, target: nil, meetsTarget: nil))
        let plainBytes = SwiftWorkloads.bytesPerView(count: 100_000, overrides: 0, registrations: 0)
        figures.append(Figure(name: "memory per view", unit: "bytes", value: plainBytes, spread: 0,
                              comparisonName: "with 2 overrides",
                              comparison: SwiftWorkloads.bytesPerView(count: 100_000, overrides: 2, registrations: 0),
                              target: "<= 256", meetsTarget: plainBytes <= 256))
        figures.append(Figure(name: "memory per view, 2 registrations", unit: "bytes",
                              value: SwiftWorkloads.bytesPerView(count: 100_000, overrides: 0, registrations: 2), spread: 0,
                              comparisonName: "-", comparison: nil, target: nil, meetsTarget: nil))
        if let lua = LuaWorkloads.run(count: sizes.last!, runs: runs) {
            let read = lua["engineRead"] ?? 0, pureRead = lua["pureRead"] ?? 0
            figures.append(Figure(name: "lua read (node.traitCollection.T)", unit: "ns/read", value: read,
                                  spread: lua["engineReadSpread"] ?? 0, comparisonName: "pure Lua __index chain",
                                  comparison: pureRead, target: "<= 100 and 3x faster than pure Lua",
                                  meetsTarget: read <= 100 && read * 3 <= pureRead))
            let flush = lua["engineFlush"] ?? 0, pureFlush = lua["pureFlush"] ?? 0
            figures.append(Figure(name: "lua flush with Lua handlers, \(sizes.last!) nodes", unit: "ns/node", value: flush,
                                  spread: lua["engineFlushSpread"] ?? 0, comparisonName: "pure Lua propagation",
                                  comparison: pureFlush, target: "10x faster than pure Lua",
                                  meetsTarget: flush * 10 <= pureFlush))
        }
        print(json ? BenchReport.json(figures) : BenchReport.table(figures))
    }
}

enum BenchReport {
    static func table(_ figures: [Figure]) -> String {
        var lines = ["figure | value | spread | comparison | target"]
        for f in figures {
            let comparison = f.comparison.map { "\(f.comparisonName): \(format($0))" } ?? ""
            let verdict = f.meetsTarget.map { $0 ? "met" : "MISSED" } ?? ""
            lines.append("\(f.name) | \(format(f.value)) \(f.unit) | \(format(f.spread)) | \(comparison) | \(f.target ?? "") \(verdict)")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ figures: [Figure]) -> String {
        JSON.array(figures.map { f in
            var pairs: [(String, JSON)] = [("name", .string(f.name)), ("unit", .string(f.unit)),
                                           ("value", .number(f.value)), ("spread", .number(f.spread))]
            if let c = f.comparison { pairs.append(("comparison", .object([("name", .string(f.comparisonName)), ("value", .number(c))]))) }
            if let t = f.target { pairs.append(("target", .string(t))) }
            if let m = f.meetsTarget { pairs.append(("meetsTarget", .bool(m))) }
            return JSON.object(pairs)
        }).serialized(indent: 2)
    }

    static func format(_ x: Double) -> String { formatNumber((x * 10).rounded() / 10) }
}
