/// A hierarchy as an indented text tree: class, name, overrides and the values they produce,
/// one line per node (control characters in names and values escaped). Used by `traitkit dump`
/// and the REPL's `:tree`. A screen shows its system traits, where the values come from.
extension TraitEnvironment {
    /// With `resolved`, each line also shows the node's resolved values that are not defaults.
    public func treeDescription(resolved: Bool = false) -> String {
        var lines: [String] = []
        appendTree(to: &lines, depth: 0, resolved: resolved)
        return lines.joined(separator: "\n")
    }

    private func appendTree(to lines: inout [String], depth: Int, resolved: Bool) {
        var line = String(repeating: "  ", count: depth) + className
        if let name { line += " '\(name)'" }
        if let screen = self as? Screen, !screen.systemTraits.nonDefaultTraits.isEmpty {
            line += "  [system: " + screen.systemTraits.nonDefaultTraits.map { trait in
                "\(trait.name) = \(trait.format(screen.systemTraits[trait]))"
            }.joined(separator: ", ") + "]"
        }
        let overridden = overrideStorage?.mask.traits ?? []
        if !overridden.isEmpty {
            line += "  [" + overridden.map { trait in
                let value = overrideStorage!.value(trait.id)!
                let resolved = traitCollection[trait]
                let set = "\(trait.name) = \(trait.format(value))"
                return value == resolved ? set : set + " (resolved: \(trait.format(resolved)); update pending)"
            }.joined(separator: ", ") + "]"
        }
        if resolved {
            let collection = traitCollection
            line += "  {" + collection.nonDefaultTraits.map { "\($0.name) = \($0.format(collection[$0]))" }
                .joined(separator: ", ") + "}"
        }
        lines.append(printable(line))
        for child in traitChildNodes { child.appendTree(to: &lines, depth: depth + 1, resolved: resolved) }
    }
}
