/// R5: trait overrides. A node's collection is its parent's with these values applied.
///
/// Storage is a small sorted array plus a mask, allocated only once a node has an override,
/// so a plain view pays one nil pointer for the feature.
final class TraitOverrideStorage {
    struct Entry {
        let id: Int
        var value: TraitValue
    }
    // Unchecked exclusivity: the storage belongs to one node, confined to its thread, and no
    // access to them is held across a call.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    @exclusivity(unchecked) private(set) var mask = TraitSet()

    var maxID: Int { entries.last?.id ?? -1 }
    var isEmpty: Bool { entries.isEmpty }

    func value(_ id: Int) -> TraitValue? {
        guard mask.contains(id) else { return nil }
        return entries.first { $0.id == id }?.value
    }

    /// Stores a value; returns whether anything changed.
    func set(_ value: TraitValue, id: Int) -> Bool {
        if let i = entries.firstIndex(where: { $0.id == id }) {
            if entries[i].value == value { return false }
            entries[i].value = value
            return true
        }
        let at = entries.firstIndex { $0.id > id } ?? entries.count
        entries.insert(Entry(id: id, value: value), at: at)
        mask.insert(id)
        return true
    }

    /// Removes a value; returns whether one was there.
    func remove(_ id: Int) -> Bool {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: i)
        mask.remove(id)
        return true
    }
}

/// The `traitOverrides` of a node: set, read, `contains`, `remove` (R5).
///
/// A view onto the node, so `view.traitOverrides[ThemeTrait.self] = .pastel` writes through.
public struct TraitOverrides: CustomStringConvertible {
    unowned let node: TraitEnvironment

    /// Sets an override after checking the value fits the trait.
    public func set(_ value: TraitValue, for trait: Trait) throws(TraitError) {
        try node.checkCanOverride()
        node.setOverride(try trait.conformed(value), id: trait.id)
    }

    /// The override's value; an unset override is an error naming the trait and the node.
    public func value(for trait: Trait) throws(TraitError) -> TraitValue {
        guard let value = node.overrideStorage?.value(trait.id) else {
            throw .noOverride(trait: trait.name, node: node.debugName)
        }
        return value
    }

    /// Whether the node overrides `trait`.
    public func contains(_ trait: Trait) -> Bool {
        node.overrideStorage?.mask.contains(trait.id) ?? false
    }

    /// Removes the override of `trait`, if any; collections change at the next update.
    public func remove(_ trait: Trait) {
        node.removeOverride(id: trait.id)
    }

    /// Typed `contains`, as UIKit's `traitOverrides.contains(MyAppThemeTrait.self)`.
    public func contains<T: TraitDefinition>(_ definition: T.Type) -> Bool {
        node.overrideStorage?.mask.contains(T.traitID) ?? false
    }

    /// Typed `remove`, as UIKit's `traitOverrides.remove(MyAppThemeTrait.self)`.
    public func remove<T: TraitDefinition>(_ definition: T.Type) {
        node.removeOverride(id: T.traitID)
    }

    /// The traits overridden here, in definition order.
    public var traits: [Trait] { node.overrideStorage?.mask.traits ?? [] }

    /// `<TraitOverrides of View 'header': userInterfaceStyle = dark>`, as collections print (R3).
    public var description: String {
        let set = traits.map { "\($0.name) = \($0.format(node.overrideStorage!.value($0.id)!))" }
        return "<TraitOverrides of \(node.debugName): \(set.isEmpty ? "empty" : set.joined(separator: ", "))>"
    }

    /// Whether the node overrides nothing.
    public var isEmpty: Bool { node.overrideStorage?.isEmpty ?? true }

    /// Typed access: reads nil when not set, assigning nil removes.
    public subscript<T: TraitDefinition>(definition: T.Type) -> T.Value? {
        get { node.overrideStorage?.value(T.traitID).flatMap(T.Value.init(traitValue:)) }
        nonmutating set {
            if let newValue { node.setOverride(newValue.traitValue, id: T.traitID) } else { remove(T.self) }
        }
    }
}

extension TraitEnvironment {
    /// The node's overrides, or nil for nodes that have none (a Screen): for bindings that
    /// reach nodes without knowing their class.
    public var traitOverridesIfAny: TraitOverrides? {
        self is Screen ? nil : TraitOverrides(node: self)
    }
}
