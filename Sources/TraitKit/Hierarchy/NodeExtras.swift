/// State most nodes never need, kept out of line so a plain view stays small (§6).
///
/// What a trait change reads comes first and together (`traitsDidChange`): the first
/// registration, apart because most nodes have one (firing it then loads no array), and the
/// masks folded to 64 bits. On a large tree every line loaded per fired handler is a cache miss.
final class NodeExtras {
    /// The node's registrations in order: `first`, then `later`; `first` is nil only when
    /// there are none.
    @exclusivity(unchecked) private(set) var first: TraitChangeRegistration?
    @exclusivity(unchecked) private(set) var later: [TraitChangeRegistration] = []
    /// The masks below folded (`TraitSet.folded`): a miss is sure, a hit is confirmed against
    /// the full mask, or by each registration's own (traits 64 ids apart share a bit).
    private(set) var registeredFold: UInt64 = 0
    private(set) var layoutFold: UInt64 = 0
    private(set) var displayFold: UInt64 = 0
    private(set) var constraintsFold: UInt64 = 0
    /// The traits some registration watches.
    private(set) var registeredTraits = TraitSet()
    /// Traits read during the last layout / draw (R8 automatic trait tracking).
    var layoutTraits = TraitSet() { didSet { layoutFold = layoutTraits.folded } }
    var displayTraits = TraitSet() { didSet { displayFold = displayTraits.folded } }
    var constraintsTraits = TraitSet() { didSet { constraintsFold = constraintsTraits.folded } }

    /// What `TraitEnvironment.interestSummary` holds: every mask, folded.
    var interestFold: UInt64 { registeredFold | layoutFold | displayFold | constraintsFold }

    var registrations: [TraitChangeRegistration] { first.map { [$0] + later } ?? [] }

    func append(_ registration: TraitChangeRegistration) {
        if first == nil { first = registration } else { later.append(registration) }
        registeredTraits.formUnion(registration.traits)
        registeredFold = registeredTraits.folded
    }

    /// Removes `registration`; returns false when it is not one of these.
    func remove(_ registration: TraitChangeRegistration) -> Bool {
        if first === registration {
            first = later.isEmpty ? nil : later.removeFirst()
        } else if let i = later.firstIndex(where: { $0 === registration }) {
            later.remove(at: i)
        } else {
            return false
        }
        registeredTraits = registrations.reduce(TraitSet()) { $0.union($1.traits) }
        registeredFold = registeredTraits.folded
        return true
    }
}
