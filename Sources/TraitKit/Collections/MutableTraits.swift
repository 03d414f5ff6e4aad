/// The writable trait container handed to `TraitCollection { ... }` and `modifyingTraits`
/// (UIKit's `UIMutableTraits`).
public struct MutableTraits {
    var values: ContiguousArray<TraitValue>

    init(values: ContiguousArray<TraitValue>) { self.values = values }

    /// Traits starting from `collection`'s values.
    public init(_ collection: TraitCollection) { values = collection.values }

    /// Reads a trait; unset traits read as their default.
    public func value(for trait: Trait) -> TraitValue {
        trait.id < values.count ? values[trait.id] : trait.defaultValue
    }

    /// Sets a trait after checking the value fits its kind.
    public mutating func set(_ value: TraitValue, for trait: Trait) throws(TraitError) {
        store(try trait.conformed(value), at: trait.id)
    }

    mutating func store(_ value: TraitValue, at id: Int) {
        if values.count <= id { values.append(contentsOf: TraitRegistry.defaultValues(values.count..<id + 1)) }
        values[id] = value
    }

    /// Typed access for traits defined in Swift; typed values always fit, so this cannot fail.
    /// By the trait's id, as `TraitCollection`'s typed read, so it counts no references.
    public subscript<T: TraitDefinition>(definition: T.Type) -> T.Value {
        get {
            let id = T.traitID
            return id < values.count ? T.Value(traitValue: values[id]) ?? T.defaultValue : T.defaultValue
        }
        set { store(newValue.traitValue, at: T.traitID) }
    }
}
