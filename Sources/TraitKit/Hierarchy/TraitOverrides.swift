/// R5: trait overrides. A node's collection is its parent's with these values applied.
///
/// Storage is a small sorted array plus a mask, allocated only once a node has an override,
/// so a plain view pays one nil pointer for the feature. The entries live in the object's own
/// allocation (one block per overriding node, one pointer less to follow when an update
/// applies them); a set that needs more room than there is makes a larger storage, which
/// replaces this one in the node.
final class TraitOverrideStorage: ManagedBuffer<TraitOverrideStorage.Header, TraitOverrideStorage.Entry> {
    struct Entry {
        let id: Int
        var value: TraitValue
    }

    struct Header {
        var count = 0
        /// Kept here: `ManagedBuffer.capacity` asks the allocator (`malloc_usable_size`) each time.
        var capacity: Int
        var mask = TraitSet()
    }

    /// An empty storage with room for `capacity` entries.
    static func make(capacity: Int) -> TraitOverrideStorage {
        let buffer = create(minimumCapacity: capacity) { _ in Header(capacity: capacity) }
        return unsafeDowncast(buffer, to: TraitOverrideStorage.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, entries in entries.deinitialize(count: header.pointee.count) }
    }

    /// The entries, sorted by id.
    var entries: UnsafeBufferPointer<Entry> {
        withUnsafeMutablePointers { header, entries in UnsafeBufferPointer(start: entries, count: header.pointee.count) }
    }

    /// The header, read through its pointer: `ManagedBuffer.header` is a stored property of a
    /// class, so each plain read of it outside the standard library pays a dynamic exclusivity
    /// check (a call into the runtime and a thread-local lookup), where an update reads the
    /// mask of every overriding node it visits.
    private var head: Header { withUnsafeMutablePointerToHeader { $0.pointee } }

    var mask: TraitSet { head.mask }
    var maxID: Int { entries.last?.id ?? -1 }
    var isEmpty: Bool { head.count == 0 }

    func value(_ id: Int) -> TraitValue? {
        guard mask.contains(id) else { return nil }
        return entries.first { $0.id == id }?.value
    }

    /// Stores a value in `storage`, making or growing it as needed; returns whether anything
    /// changed.
    static func set(_ value: TraitValue, id: Int, in storage: inout TraitOverrideStorage?) -> Bool {
        // A storage just made is empty, so it is stored below, where it gets its entry.
        let current = storage ?? make(capacity: 2)
        if let i = current.entries.firstIndex(where: { $0.id == id }) {
            return current.withUnsafeMutablePointerToElements { entries in
                if entries[i].value == value { return false }
                entries[i].value = value
                return true
            }
        }
        let target = current.head.count < current.head.capacity ? current : current.grown()
        storage = target
        target.insert(Entry(id: id, value: value))
        return true
    }

    /// Removes a value; returns whether one was there.
    func remove(_ id: Int) -> Bool {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        withUnsafeMutablePointers { header, entries in
            let count = header.pointee.count
            (entries + i).deinitialize(count: 1)
            (entries + i).moveInitialize(from: entries + i + 1, count: count - i - 1)
            header.pointee.count = count - 1
            header.pointee.mask.remove(id)
        }
        return true
    }

    /// A storage with twice the room and these entries, moved out of this one.
    private func grown() -> TraitOverrideStorage {
        let larger = Self.make(capacity: head.capacity * 2)
        withUnsafeMutablePointers { header, entries in
            larger.withUnsafeMutablePointers { newHeader, newEntries in
                newEntries.moveInitialize(from: entries, count: header.pointee.count)
                newHeader.pointee.count = header.pointee.count
                newHeader.pointee.mask = header.pointee.mask
            }
            header.pointee.count = 0
        }
        return larger
    }

    /// Inserts an entry whose id is not here yet, in id order; there is room for it.
    private func insert(_ entry: Entry) {
        let at = entries.firstIndex { $0.id > entry.id } ?? head.count
        withUnsafeMutablePointers { header, entries in
            let count = header.pointee.count
            (entries + at + 1).moveInitialize(from: entries + at, count: count - at)
            (entries + at).initialize(to: entry)
            header.pointee.count = count + 1
            header.pointee.mask.insert(entry.id)
        }
    }
}

/// The `traitOverrides` of a node: set, read, `contains`, `remove` (R5).
///
/// A view onto the node, so `view.traitOverrides[ThemeTrait.self] = .pastel` writes through.
/// It holds the node strongly: a value kept beyond the node's life keeps the node, and the
/// reference costs one retain, where `unowned` cost three calls into the runtime per use.
public struct TraitOverrides: CustomStringConvertible {
    let node: TraitEnvironment

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
