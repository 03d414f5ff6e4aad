/// A set of traits as a fixed-size bit mask indexed by trait id.
///
/// Change propagation asks "did any trait this node cares about change?" at every visited node;
/// a mask answers it with four ANDs and no allocation, hashing or reference counting.
public struct TraitSet: Sendable, Equatable, Sequence {
    /// How many traits a set can hold: the most a process may define.
    public static let capacity = 256
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    /// The empty set.
    public init() {}

    /// The set of `traits`.
    public init<S: Sequence>(_ traits: S) where S.Element == Trait {
        for trait in traits { insert(trait.id) }
    }

    /// Whether the set has no trait.
    public var isEmpty: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// The set folded to 64 bits: bit `id % 64` for every member. Disjoint folds mean disjoint
    /// sets; overlapping folds may still be disjoint sets (traits 64 ids apart).
    public var folded: UInt64 { w0 | w1 | w2 | w3 }

    /// Whether the trait with id `id` is in the set.
    public func contains(_ id: Int) -> Bool {
        word(id >> 6) & (1 << UInt64(id & 63)) != 0
    }

    /// Whether `trait` is in the set.
    public func contains(_ trait: Trait) -> Bool { contains(trait.id) }

    /// Adds the trait with id `id`.
    public mutating func insert(_ id: Int) {
        let bit: UInt64 = 1 << UInt64(id & 63)
        switch id >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    /// Removes the trait with id `id`.
    public mutating func remove(_ id: Int) {
        let bit: UInt64 = ~(1 << UInt64(id & 63))
        switch id >> 6 {
        case 0: w0 &= bit
        case 1: w1 &= bit
        case 2: w2 &= bit
        default: w3 &= bit
        }
    }

    /// Whether the sets share a trait.
    public func intersects(_ other: TraitSet) -> Bool {
        ((w0 & other.w0) | (w1 & other.w1) | (w2 & other.w2) | (w3 & other.w3)) != 0
    }

    /// The traits of this set that are not in `other`.
    public func subtracting(_ other: TraitSet) -> TraitSet {
        var r = self
        r.w0 &= ~other.w0; r.w1 &= ~other.w1; r.w2 &= ~other.w2; r.w3 &= ~other.w3
        return r
    }

    /// The traits of either set.
    public func union(_ other: TraitSet) -> TraitSet {
        var r = self
        r.w0 |= other.w0; r.w1 |= other.w1; r.w2 |= other.w2; r.w3 |= other.w3
        return r
    }

    /// Adds the traits of `other`.
    public mutating func formUnion(_ other: TraitSet) { self = union(other) }

    /// Whether every trait of this set is in `other`.
    public func isSubset(of other: TraitSet) -> Bool { subtracting(other).isEmpty }

    /// The ids in the set, ascending (definition order).
    public func makeIterator() -> Iterator { Iterator(self) }

    /// Walks the set a bit at a time, with nothing allocated: updates iterate sets of changed
    /// traits at every node they compare.
    public struct Iterator: IteratorProtocol {
        private let set: TraitSet
        private var index = 0
        private var bits: UInt64

        init(_ set: TraitSet) {
            self.set = set
            bits = set.w0
        }

        public mutating func next() -> Int? {
            while bits == 0 {
                guard index < 3 else { return nil }
                index += 1
                bits = set.word(index)
            }
            let bit = bits.trailingZeroBitCount
            bits &= bits - 1
            return index * 64 + bit
        }
    }

    /// The traits in the set, in definition order.
    public var traits: [Trait] { TraitRegistry.traits(self) }

    fileprivate func word(_ i: Int) -> UInt64 {
        switch i {
        case 0: w0
        case 1: w1
        case 2: w2
        case 3: w3
        default: 0
        }
    }
}
