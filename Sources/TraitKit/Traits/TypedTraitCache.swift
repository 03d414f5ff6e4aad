import Synchronization

/// Where `TraitDefinition.trait` finds the registered trait of a Swift definition type.
///
/// Typed reads (`tc[MyTrait.self]`, and every property extension built on them) ask for the
/// trait on each read, so the lookup must cost next to nothing: an immutable open-addressing
/// table keyed by the type's metadata pointer, published through an atomic pointer. A read is
/// one acquiring load and a probe or two — no lock, no `Hasher` — and asks for the trait's id,
/// not the trait, so it retains nothing (the table is borrowed, the id is a plain Int). That
/// is what brings `tc[MyTrait.self]` near a read by trait object. The rare first use of a type
/// builds a new table under a lock; old tables are kept (readers may still hold them), at most
/// one per typed definition, which the trait registry's capacity bounds.
@usableFromInline
enum TypedTraitCache {
    final class Table: Sendable {
        let keys: [UInt]   // 0: empty slot
        let traits: [Trait?]
        let ids: [Int]
        let mask: Int

        init(_ entries: [(key: UInt, trait: Trait)]) {
            var size = 16
            while size < entries.count * 2 { size *= 2 }
            var keys = [UInt](repeating: 0, count: size)
            var traits = [Trait?](repeating: nil, count: size)
            var ids = [Int](repeating: -1, count: size)
            for entry in entries {
                var i = Table.slot(entry.key, size - 1)
                while keys[i] != 0 { i = (i + 1) & (size - 1) }
                keys[i] = entry.key
                traits[i] = entry.trait
                ids[i] = entry.trait.id
            }
            self.keys = keys
            self.traits = traits
            self.ids = ids
            mask = size - 1
        }

        static func slot(_ key: UInt, _ mask: Int) -> Int { Int(truncatingIfNeeded: key >> 4) & mask }

        /// The slot holding `key`, or nil.
        func find(_ key: UInt) -> Int? {
            var i = Table.slot(key, mask)
            while true {
                let k = keys[i]
                if k == key { return i }
                if k == 0 { return nil }
                i = (i + 1) & mask
            }
        }
    }

    private struct State {
        var entries: [(key: UInt, trait: Trait)] = []
        var tables: [Table] = []
    }

    private static let published = Atomic<Unmanaged<Table>?>(nil)
    private static let state = Mutex(State())

    static func key(_ type: Any.Type) -> UInt { UInt(bitPattern: ObjectIdentifier(type)) }

    static func lookup(_ type: Any.Type) -> Trait? {
        published.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { table in
            table.find(key(type)).flatMap { table.traits[$0] }
        }
    }

    /// The id of the trait registered for `type`, or -1 before its first use.
    @usableFromInline
    static func id(of type: Any.Type) -> Int {
        guard let table = published.load(ordering: .acquiring) else { return -1 }
        return table._withUnsafeGuaranteedRef { table in table.find(key(type)).map { table.ids[$0] } ?? -1 }
    }

    static func insert(_ trait: Trait, for type: Any.Type) {
        let key = key(type)
        state.withLock { state in
            if state.entries.contains(where: { $0.key == key }) { return }
            state.entries.append((key, trait))
            let table = Table(state.entries)
            state.tables.append(table)
            published.store(Unmanaged.passUnretained(table), ordering: .releasing)
        }
    }
}
