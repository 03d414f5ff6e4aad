/// R6 storage: which nodes share a slot (`CollectionSlot`), and what the walk may skip.
///
/// A node without overrides shares its parent's slot; owning one is the exception (overrides,
/// a root, a value held back from the parent). So an update writes the owner's slot and is
/// done with the region, and visits below it only the nodes that need a visit: owners below,
/// nodes whose registrations, layout or draw read a trait that changed, nodes that react to
/// every change, and nodes with work pending. Each node summarises its subtree for this
/// (`subtreeInterest`, `.subtreeVisitOnAnyChange`, `.subtreeHasBinding`); a summary may
/// over-approximate (it is made exact again when the walk scans the node's children), never
/// under-approximate.
extension TraitEnvironment {
    /// The summary flags this node contributes by itself.
    var ownSummaryFlags: NodeFlags {
        var own: NodeFlags = []
        if !flags.isDisjoint(with: [.ownsSlot, .wantsInternalTraitChange, .hasDynamicColor])
            || !flags.contains(.engineClass) {
            own.insert(.subtreeVisitOnAnyChange)
        }
        if flags.contains(.hasBinding) { own.insert(.subtreeHasBinding) }
        return own
    }

    /// Adds what this node and its subtree ask of the walk to its ancestors' summaries, after
    /// it grew (a registration, a flag, a move); stops at the first ancestor that has it all.
    func summaryDidGrow() {
        let bits = ownSummaryFlags.union(flags.intersection([.subtreeVisitOnAnyChange, .subtreeHasBinding]))
        let interest = interestSummary | subtreeInterest
        var node: TraitEnvironment? = self
        while let n = node, !n.flags.contains(bits) || n.subtreeInterest & interest != interest {
            n.flags.formUnion(bits)
            n.subtreeInterest |= interest
            node = n.traitParent
        }
    }

    /// Whether the walk must enter `self`, a child whose parent's collection changed `changed`
    /// (folded), given the flags that mean "visit on any change" in this pass.
    @inline(__always)
    func wantsVisit(changed: UInt64, anyChange: NodeFlags) -> Bool {
        !flags.isDisjoint(with: [.needsTraitUpdate, .subtreeNeedsTraitUpdate])
            || (changed != 0 && (!flags.isDisjoint(with: anyChange) || subtreeInterest & changed != 0))
    }

    // MARK: Slots

    /// Gives this node `collection` in a slot of its own; the nodes that shared its old slot
    /// below it move to the new one (they inherit from it).
    func ownSlot(_ collection: TraitCollection) {
        if flags.contains(.ownsSlot) {
            slotRef._withUnsafeGuaranteedRef { if $0.collection !== collection { $0.write(collection, in: CurrentSlot.box) } }
            return
        }
        let old = slotRef
        slotRef = .passRetained(CollectionSlot(collection, origin: old.takeUnretainedValue(), in: CurrentSlot.box))
        repointChildren(from: old, to: slotRef, forgetSeen: false)
        old.release()
        flags.insert(.ownsSlot)
        summaryDidGrow()
    }

    /// Makes this node share `parentSlot` (its collection is its parent's), with the nodes
    /// below it that shared its slot.
    func joinSlot(_ parentSlot: Unmanaged<CollectionSlot>) {
        flags.remove(.ownsSlot)
        guard slotRef.toOpaque() != parentSlot.toOpaque() else { return }
        let old = slotRef
        slotRef = parentSlot.retain()
        repointChildren(from: old, to: parentSlot, forgetSeen: true)
        old.release()
    }

    /// Keeps this node's collection as it is whatever its ancestors' slots do next (it is
    /// moving, or an ancestor updates ahead of it): a node sharing a slot gets its own, with
    /// the same collection. The caller marks it for a recompute where it needs one.
    func keepCollection() {
        guard !flags.contains(.ownsSlot),
              slotRef.toOpaque() != Unmanaged.passUnretained(CollectionSlot.defaults).toOpaque() else { return }
        ownSlot(traitCollection)
    }

    /// Moves the children that share `old` (and theirs, recursively) to `new`. Nodes on the
    /// `defaults` slot stay: they have not been updated yet, and keep all defaults until then.
    /// A new slot made from `old` still answers for `old`'s versions; any other does not, so
    /// the nodes moved to it forget which version they took in (`forgetSeen`).
    private func repointChildren(from old: Unmanaged<CollectionSlot>, to new: Unmanaged<CollectionSlot>,
                                 forgetSeen: Bool) {
        guard old.toOpaque() != Unmanaged.passUnretained(CollectionSlot.defaults).toOpaque() else { return }
        for entry in traitChildren {
            entry._withUnsafeGuaranteedRef { child in
                guard child.slotRef.toOpaque() == old.toOpaque(), !child.flags.contains(.ownsSlot) else { return }
                child.slotRef = new.retain()
                old.release()
                if forgetSeen { child.seenVersion = 0 }
                child.repointChildren(from: old, to: new, forgetSeen: forgetSeen)
            }
        }
    }
}
