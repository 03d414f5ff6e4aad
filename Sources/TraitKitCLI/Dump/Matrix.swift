import ArgumentParser
import TraitKit

/// `traitkit dump --matrix name=v1,v2 ... FILE`: the script once per combination of the
/// values given (each run in a fresh state, as `--trait` settings), then, per node, the traits
/// whose resolved values differ between combinations: Xcode previews' variants, for
/// configuration scripts.
struct Matrix {
    /// One `--matrix` option: a trait name and its values.
    struct Axis {
        let name: String
        let values: [String]

        init(_ option: String) throws {
            guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
                throw ValidationError("--matrix takes name=value1,value2 (got '\(printable(option))')")
            }
            name = String(option[..<equals])
            values = option[option.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
                .map(String.init)
            guard !values.contains(where: \.isEmpty) else {
                throw ValidationError("--matrix \(name): an empty value in '\(printable(option))'")
            }
        }
    }

    let axes: [Axis]

    /// Every combination, each as `name=value` settings, the first axis varying slowest.
    var combinations: [[String]] {
        axes.reduce([[]]) { partial, axis in
            partial.flatMap { settings in axis.values.map { settings + ["\(axis.name)=\($0)"] } }
        }
    }

    /// The rows of the comparison: per node path present in every run, the traits whose
    /// values differ, with the value in each run; nodes some runs lack are listed apart.
    static func differences(_ runs: [HierarchySummary]) -> (rows: [(path: String, traits: [(String, [String])])], partial: [String]) {
        guard !runs.isEmpty else { return ([], []) }
        var rows: [(path: String, traits: [(String, [String])])] = []
        var partial: [String] = []
        var seen = Set<String>()
        for path in runs.flatMap(\.paths) where seen.insert(path).inserted {
            let nodes = runs.compactMap { $0.nodes[path] }
            guard nodes.count == runs.count else {
                partial.append(path)
                continue
            }
            var traits: [(String, [String])] = []
            for (i, (trait, _)) in nodes[0].values.enumerated() {
                let values = nodes.map { $0.values.indices.contains(i) ? $0.values[i].value : "" }
                if Set(values).count > 1 { traits.append((trait, values)) }
            }
            if !traits.isEmpty { rows.append((path, traits)) }
        }
        return (rows, partial)
    }

    /// The comparison as aligned text: the combinations numbered, then the rows of each node
    /// whose differences are not its parent's (a node not listed shows what its parent shows).
    func table(_ runs: [HierarchySummary]) -> String {
        let (rows, partial) = Self.differences(runs)
        var out = "combinations:\n"
        for (i, settings) in combinations.enumerated() { out += "  \(i + 1)  \(settings.joined(separator: " "))\n" }
        if rows.isEmpty { out += "no node's traits differ between the combinations\n" }
        else { out += "(a node not listed differs as its parent does)\n" }
        let byPath = Dictionary(rows.map { ($0.path, $0.traits.map { [$0.0] + $0.1 }) }, uniquingKeysWith: { a, _ in a })
        for path in runs[0].paths where !partial.contains(path) {
            let mine = byPath[path] ?? []
            let parent = path.ranges(of: " / ").last.map { String(path[..<$0.lowerBound]) }
            if mine == (parent.flatMap { byPath[$0] } ?? []) { continue }
            guard !mine.isEmpty else {
                out += "\n\(path)\n  the same in every combination\n"
                continue
            }
            let traits = mine.map { ($0[0], Array($0.dropFirst())) }
            out += "\n\(path)\n"
            let header = ["trait"] + combinations.indices.map { "\($0 + 1)" }
            let cells = [header] + traits.map { [$0.0] + $0.1 }
            let widths = header.indices.map { column in cells.map { $0[column].count }.max()! }
            for row in cells {
                out += "  " + row.enumerated().map { $1 + String(repeating: " ", count: widths[$0] + 2 - $1.count) }
                    .joined().trimmedTrailingSpaces + "\n"
            }
        }
        for path in partial { out += "\nnot in every combination: \(path)\n" }
        return out
    }

    /// The comparison as JSON: the combinations, then per node the differing traits' values.
    func json(_ runs: [HierarchySummary]) -> JSON {
        let (rows, partial) = Self.differences(runs)
        let combos = combinations.map { settings in
            JSON.object(settings.map { setting in
                let equals = setting.firstIndex(of: "=")!
                return (String(setting[..<equals]), .string(String(setting[setting.index(after: equals)...])))
            })
        }
        return .object([
            ("combinations", .array(combos)),
            ("nodes", .array(rows.map { path, traits in
                .object([("path", .string(path)),
                         ("traits", .object(traits.map { ($0.0, .array($0.1.map(JSON.string))) }))])
            })),
            ("notInEveryCombination", .array(partial.map(JSON.string))),
        ])
    }
}

extension String {
    var trimmedTrailingSpaces: String {
        String(reversed().drop(while: { $0 == " " }).reversed())
    }
}
