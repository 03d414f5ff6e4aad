import Synchronization

/// An immutable set of trait values (R3). Unset traits read as their default.
///
/// Values live in a flat array indexed by trait id; traits defined after the collection was
/// built fall past its end and read as their defaults. Nodes without overrides share their
/// parent's collection instance, so equality first checks identity.
public final class TraitCollection: @unchecked Sendable, Equatable, CustomStringConvertible {
    // @unchecked: the storage is written once, in init, and freed in deinit.
    /// The values, in storage this collection owns, so a read can hand out their address (an
    /// addressor is a plain inlinable function; the caller borrows the value in place).
    @usableFromInline let storage: UnsafeMutablePointer<TraitValue>
    @usableFromInline let count: Int

    init(values: ContiguousArray<TraitValue>) {
        count = values.count
        storage = .allocate(capacity: Swift.max(count, 1))
        values.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(start: storage, count: count).initialize(fromContentsOf: $0) }
    }

    /// A collection of `count` values copied from `values`, with the defaults of traits
    /// defined after it past its end, and `change` applied: one allocation, one copy.
    private init(extending values: UnsafeBufferPointer<TraitValue>, to count: Int,
                 _ change: (UnsafeMutablePointer<TraitValue>) -> Void) {
        self.count = count
        storage = .allocate(capacity: Swift.max(count, 1))
        storage.initialize(from: values.baseAddress!, count: values.count)
        if count > values.count {
            TraitRegistry.initializeDefaults(storage + values.count, first: values.count, count: count - values.count)
        }
        change(storage)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The values as an array (for copying into `MutableTraits` and the like).
    var values: ContiguousArray<TraitValue> { ContiguousArray(UnsafeBufferPointer(start: storage, count: count)) }

    /// A collection where every trait has its default value.
    public convenience init() { self.init(values: []) }

    /// Builds a collection from all defaults, as UIKit's `UITraitCollection { mutableTraits in ... }`.
    public convenience init(_ build: (inout MutableTraits) throws -> Void) rethrows {
        var traits = MutableTraits(values: [])
        try build(&traits)
        self.init(values: traits.values)
    }

    /// The collection holding `traits`.
    public convenience init(_ traits: MutableTraits) { self.init(values: traits.values) }

    /// The shared all-defaults collection: what a node has before its first update.
    public static let defaults = TraitCollection()

    /// A new collection starting from this one, as UIKit's `modifyingTraits`.
    public func modifyingTraits(_ change: (inout MutableTraits) throws -> Void) rethrows -> TraitCollection {
        var traits = MutableTraits(values: values)
        try change(&traits)
        return TraitCollection(values: traits.values)
    }

    /// The value of `trait`: the hot read, one bounds check and one load.
    /// Given by address, so a caller that only compares or switches on the value borrows it in
    /// place: no copy, no reference counting of string or object payloads.
    @inlinable
    public subscript(trait: Trait) -> TraitValue {
        unsafeAddress {
            let id = trait.id
            if TraitReadTracking.activeRecorders.load(ordering: .relaxed) != 0 { TraitReadTracking.noteRead(id) }
            return id < count ? UnsafePointer(storage + id) : UnsafePointer(trait.defaultSlot)
        }
    }

    /// The typed value of a trait defined in Swift. Inlinable, so it is specialized where it is
    /// used: a generic call would instantiate metadata on every read. It goes by the trait's
    /// id, so it counts no references; past the end of the storage the trait was defined after
    /// this collection, which reads the definition's default.
    @inlinable
    public subscript<T: TraitDefinition>(definition: T.Type) -> T.Value {
        let id = T.traitID
        if TraitReadTracking.activeRecorders.load(ordering: .relaxed) != 0 { TraitReadTracking.noteRead(id) }
        guard id < count else { return T.defaultValue }
        return T.Value(traitValue: storage[id]) ?? T.defaultValue
    }

    /// The traits whose values differ between the two collections.
    ///
    /// Every update compares each node it visits this way. Values are compared in place, and
    /// first by their bits: a collection made from another copies its values, so most pairs
    /// are the same bits, which is the same case with the same payload (the same string
    /// storage, record storage or object), hence equal; only the others are compared by value.
    public func changedTraitSet(from other: TraitCollection) -> TraitSet {
        var changed = TraitSet()
        if other === self { return changed }
        let common = Swift.min(count, other.count)
        for id in 0..<common where !TraitValue.equalInPlace(storage + id, other.storage + id) { changed.insert(id) }
        // Past the shorter array, that side reads the trait's default.
        let longer = count > other.count ? self : other
        if longer.count > common {
            TraitRegistry.insertNonDefaults(UnsafeBufferPointer(start: longer.storage + common, count: longer.count - common),
                                            first: common, into: &changed)
        }
        return changed
    }

    /// The traits of `ids` whose values differ between the two collections: what
    /// `changedTraitSet(from:)` says when the two can differ nowhere else, at the cost of
    /// those traits alone.
    func changedTraitSet(from other: TraitCollection, among ids: TraitSet) -> TraitSet {
        var changed = TraitSet()
        if other === self { return changed }
        for id in ids {
            let mine = id < count ? UnsafePointer(storage + id) : nil
            let theirs = id < other.count ? UnsafePointer(other.storage + id) : nil
            if mine == nil, theirs == nil { continue }  // both read the default
            let fallback = mine == nil || theirs == nil ? TraitRegistry.defaultSlot(id: id) : nil
            if !TraitValue.equalInPlace(mine ?? fallback!, theirs ?? fallback!) { changed.insert(id) }
        }
        return changed
    }

    /// The traits whose values differ, in definition order.
    public func changedTraits(from other: TraitCollection) -> [Trait] {
        changedTraitSet(from: other).traits
    }

    /// True when a trait that affects color appearance differs (R9).
    public func hasDifferentColorAppearance(comparedTo other: TraitCollection) -> Bool {
        TraitRegistry.anyAffectsColorAppearance(changedTraitSet(from: other))
    }

    /// The traits whose value here differs from their default, in definition order.
    public var nonDefaultTraits: [Trait] {
        changedTraits(from: .defaults)
    }

    public static func == (a: TraitCollection, b: TraitCollection) -> Bool {
        a === b || a.changedTraitSet(from: b).isEmpty
    }

    /// `<TraitCollection: horizontalSizeClass = regular, Theme = pastel>` (R3).
    public var description: String {
        let parts = nonDefaultTraits.map { "\($0.name) = \($0.format(self[$0]))" }
        return "<TraitCollection: " + (parts.isEmpty ? "empty" : parts.joined(separator: ", ")) + ">"
    }

    /// Calls `body` with the id and value of every object-kind value stored here, so a
    /// binding can keep its language's values alive exactly as long as the collection.
    public func forEachObject(_ body: (Int, TraitObject) -> Void) {
        for id in 0..<count {
            if case .object(let object) = storage[id] { body(id, object) }
        }
    }

    /// This collection with `overrides` applied on top.
    func applying(_ overrides: TraitOverrideStorage) -> TraitCollection {
        TraitCollection(extending: UnsafeBufferPointer(start: storage, count: count),
                        to: Swift.max(count, overrides.maxID + 1)) { values in
            for entry in overrides.entries { values[entry.id] = entry.value }
        }
    }
}
