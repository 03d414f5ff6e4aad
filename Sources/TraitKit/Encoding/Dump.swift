/// R11: a hierarchy as JSON: each node's name, class, overrides, resolved traits (those that
/// differ from their default) and children, in trait-tree order.
extension TraitEnvironment {
    /// The subtree from this node as JSON (what `tk.dump` and `traitkit dump --json` print).
    public func dumpJSON() -> JSON { HierarchySnapshot(roots: [self], resolvingColors: false).screens[0].json }

    /// The dump as indented JSON text.
    public func dump() -> String { dumpJSON().serialized(indent: 2) }
}

extension HierarchySnapshot {
    /// An array of every tree's JSON.
    public var json: JSON { .array(screens.map(\.json)) }
}

extension HierarchySnapshot.Node {
    /// This node and the nodes below it as JSON.
    public var json: JSON {
        var pairs: [(String, JSON)] = []
        if let name { pairs.append(("name", .string(name))) }
        pairs.append(("class", .string(className)))
        if !overrides.isEmpty {
            pairs.append(("overrides", .object(overrides.map { trait, value in
                (trait.name, trait.jsonValue(value) ?? .string("<object>"))
            })))
        }
        pairs.append(("traits", .object(collection.nonDefaultTraits.map { trait in
            (trait.name, trait.jsonValue(collection[trait]) ?? .string("<object>"))
        })))
        if !children.isEmpty { pairs.append(("children", .array(children.map(\.json)))) }
        return .object(pairs)
    }
}
