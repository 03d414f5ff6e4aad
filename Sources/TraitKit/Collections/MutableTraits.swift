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
        if values.count <= id { extend(to: id + 1) }
        values[id] = value
    }

    /// Gives `values` the defaults of the traits up to `count`, in one new array: appending
    /// an array of defaults made one more, and a store past the end was most of a
    /// `tc:modifying{...}`.
    private mutating func extend(to count: Int) {
        let first = values.count
        values = values.withUnsafeBufferPointer { old in
            ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
                if first > 0 { _ = buffer.initialize(fromContentsOf: old) }
                TraitRegistry.initializeDefaults(buffer.baseAddress! + first, first: first, count: count - first)
                initialized = count
            }
        }
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
