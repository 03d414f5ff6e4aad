/// A hierarchy as an indented text tree: class, name, overrides and the values they produce,
/// one line per node (control characters in names and values escaped). Used by `traitkit dump`
/// and the REPL's `:tree`. A screen shows its system traits, where the values come from.
extension TraitEnvironment {
    /// With `resolved`, each line also shows the node's resolved values that are not defaults.
    public func treeDescription(resolved: Bool = false) -> String {
        HierarchySnapshot(roots: [self], resolvingColors: false).treeDescription(resolved: resolved)
    }
}

extension HierarchySnapshot {
    /// Every tree of the snapshot, one after the other.
    public func treeDescription(resolved: Bool = false) -> String {
        var lines: [String] = []
        for screen in screens { screen.appendTree(to: &lines, depth: 0, resolved: resolved) }
        return lines.joined(separator: "\n")
    }
}

extension HierarchySnapshot.Node {
    fileprivate func appendTree(to lines: inout [String], depth: Int, resolved: Bool) {
        var line = String(repeating: "  ", count: depth) + label
        if !systemTraits.isEmpty {
            line += "  [system: " + systemTraits.map { "\($0.trait.name) = \($0.trait.format($0.value))" }
                .joined(separator: ", ") + "]"
        }
        if !overrides.isEmpty {
            line += "  [" + overrides.map { trait, value in
                let now = collection[trait]
                let set = "\(trait.name) = \(trait.format(value))"
                return value == now ? set : set + " (resolved: \(trait.format(now)); update pending)"
            }.joined(separator: ", ") + "]"
        }
        if resolved {
            line += "  {" + collection.nonDefaultTraits.map { "\($0.name) = \($0.format(collection[$0]))" }
                .joined(separator: ", ") + "}"
        }
        lines.append(printable(line))
        for child in children { child.appendTree(to: &lines, depth: depth + 1, resolved: resolved) }
    }
}
