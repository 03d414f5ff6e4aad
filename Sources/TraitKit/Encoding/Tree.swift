/// A hierarchy as an indented text tree: class, name, overrides and the values they produce,
/// one line per node (control characters in names and values escaped). Used by `traitkit dump`
/// and the REPL's `:tree`.
extension TraitEnvironment {
    public func treeDescription() -> String {
        var lines: [String] = []
        appendTree(to: &lines, depth: 0)
        return lines.joined(separator: "\n")
    }

    private func appendTree(to lines: inout [String], depth: Int) {
        var line = String(repeating: "  ", count: depth) + className
        if let name { line += " '\(name)'" }
        let overridden = overrideStorage?.mask.traits ?? []
        if !overridden.isEmpty {
            line += "  [" + overridden.map { trait in
                let value = overrideStorage!.value(trait.id)!
                let resolved = traitCollection[trait]
                let set = "\(trait.name) = \(trait.format(value))"
                return value == resolved ? set : set + " (resolved: \(trait.format(resolved)); update pending)"
            }.joined(separator: ", ") + "]"
        }
        lines.append(printable(line))
        for child in traitChildNodes { child.appendTree(to: &lines, depth: depth + 1) }
    }
}
