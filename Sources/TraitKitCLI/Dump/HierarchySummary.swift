import TraitKit

/// What `--watch` and `--matrix` compare: per node path, the node's overrides and every
/// trait's resolved value, as text. Taken right after a run, so nothing of the run's state is
/// kept once its Lua state closes.
struct HierarchySummary {
    struct Node {
        var overrides: [String: String] = [:]
        var values: [(trait: String, value: String)] = []
    }

    /// Paths in trait-tree order, and each node's facts.
    private(set) var paths: [String] = []
    private(set) var nodes: [String: Node] = [:]

    init(_ snapshot: HierarchySnapshot) {
        let traits = TraitRegistry.all
        for node in snapshot.nodes {
            paths.append(node.path)
            var facts = Node()
            for (trait, value) in node.overrides { facts.overrides[trait.name] = printable(trait.format(value)) }
            facts.values = traits.map { ($0.name, printable($0.format(node.collection[$0]))) }
            nodes[node.path] = facts
        }
    }

    /// What changed from `old` to this one: nodes added and removed, overrides set, changed and
    /// removed, resolved values changed; one line each, in trait-tree order.
    func changes(since old: HierarchySummary) -> [String] {
        var lines: [String] = []
        for path in old.paths where nodes[path] == nil { lines.append("- \(path)") }
        for path in paths {
            guard let before = old.nodes[path] else {
                lines.append("+ \(path)")
                continue
            }
            let now = nodes[path]!
            for trait in Set(before.overrides.keys).union(now.overrides.keys).sorted() {
                let a = before.overrides[trait], b = now.overrides[trait]
                if a != b { lines.append("~ \(path): override \(trait) \(a ?? "(none)") -> \(b ?? "(none)")") }
            }
            let oldValues = Dictionary(before.values.map { ($0.trait, $0.value) }, uniquingKeysWith: { a, _ in a })
            for (trait, value) in now.values where oldValues[trait] != nil && oldValues[trait] != value {
                lines.append("~ \(path): \(trait) \(oldValues[trait]!) -> \(value)")
            }
        }
        return lines
    }
}
