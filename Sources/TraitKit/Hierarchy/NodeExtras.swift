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

    /// How many steps the lookups of this node's children from their hints have taken since
    /// the hints were last made exact (`TraitEnvironment.hintWasOff(by:)`): most parents never
    /// look further than the hint.
    var staleHintSteps = 0

    /// What `TraitEnvironment.interestSummary` holds: every mask, folded.
    var interestFold: UInt64 { registeredFold | layoutFold | displayFold | constraintsFold }

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
        registeredTraits = registeredTraits.subtracting(traitsLost(with: registration))
        registeredFold = registeredTraits.folded
        return true
    }

    /// The traits of a removed registration that no remaining one watches. Most remaining
    /// registrations share its traits, so the walk usually ends at the first: removing each
    /// of a node's many registrations costs no walk over all of them, nor a copy of the list.
    private func traitsLost(with removed: TraitChangeRegistration) -> TraitSet {
        var lost = removed.traits
        if let first { lost = lost.subtracting(first.traits) }
        var i = later.startIndex
        while !lost.isEmpty, i < later.endIndex {
            lost = lost.subtracting(later[i].traits)
            i += 1
        }
        return lost
    }
}
