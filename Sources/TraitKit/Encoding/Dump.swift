/// R11: a hierarchy as JSON: each node's name, class, overrides, resolved traits (those that
/// differ from their default) and children, in trait-tree order.
extension TraitEnvironment {
    /// The subtree from this node as JSON (what `tk.dump` and `traitkit dump --json` print).
    public func dumpJSON() -> JSON {
        var pairs: [(String, JSON)] = []
        if let name { pairs.append(("name", .string(name))) }
        pairs.append(("class", .string(className)))
        let overrides = overrideStorage?.mask.traits ?? []
        if !overrides.isEmpty {
            pairs.append(("overrides", .object(overrides.map { trait in
                (trait.name, trait.jsonValue(overrideStorage!.value(trait.id)!) ?? .string("<object>"))
            })))
        }
        let collection = traitCollection
        pairs.append(("traits", .object(collection.nonDefaultTraits.map { trait in
            (trait.name, trait.jsonValue(collection[trait]) ?? .string("<object>"))
        })))
        let children = traitChildNodes
        if !children.isEmpty { pairs.append(("children", .array(children.map { $0.dumpJSON() }))) }
        return .object(pairs)
    }

    /// The dump as indented JSON text.
    public func dump() -> String { dumpJSON().serialized(indent: 2) }
}
