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
        _ = firstInTraitChain { n in
            if n.flags.contains(bits) && n.subtreeInterest & interest == interest { return true }
            n.flags.formUnion(bits)
            n.subtreeInterest |= interest
            n.wakeInParent()
            return false
        }
    }

    // MARK: Quiet children

    /// How quiet this node is, for its parent's entry (`TraitChild.Quiet`): whether the walk
    /// never needs to enter it, whatever changes above it, given that nothing is pending here
    /// and nothing in its subtree owns a slot, reacts to every change or cares about any trait.
    /// Bindings count only while some script declares `traitCollectionDidChange`.
    var quietness: TraitChild.Quiet {
        guard flags.isDisjoint(with: [.needsTraitUpdate, .subtreeNeedsTraitUpdate, .subtreeVisitOnAnyChange]),
              subtreeInterest == 0 else { return [] }
        return flags.contains(.subtreeHasBinding) ? .unlessBindingsReact : [.unlessBindingsReact, .always]
    }

    /// Clears this node's quiet entry in its parent, if it has one. Called wherever one of the
    /// fields `quietness` reads gains something: a quiet entry must never hide a child that
    /// needs a visit (the walk asserts it in debug builds).
    @inline(__always)
    func wakeInParent() {
        guard flags.contains(.quietInParent) else { return }
        flags.remove(.quietInParent)
        parentLink?._withUnsafeGuaranteedRef { parent in
            guard let i = parent.indexOfChild(self) else { return }
            parent.traitChildren[i].quiet = []
        }
    }

    /// Where `child` is in `traitChildren`, looking outward from `hint` (its `quietIndexHint`):
    /// siblings added or removed since the hint was taken moved it by as many places, so this
    /// costs that many steps, not the number of children (and `hintWasOff(by:)` bounds the
    /// steps taken over many lookups).
    func indexOfChild(_ child: TraitEnvironment) -> Int? {
        let target = UInt(bitPattern: Unmanaged.passUnretained(child).toOpaque())
        return indexOutward(from: childIndex(near: child.quietIndexHint), count: traitChildren.count) {
            traitChildren[$0].address == target
        }
    }

    /// Whether a trait update is pending here or below.
    @inline(__always)
    var hasPendingTraitUpdate: Bool { !flags.isDisjoint(with: [.needsTraitUpdate, .subtreeNeedsTraitUpdate]) }

    /// Whether the walk must enter `self`, a child whose parent's collection changed `changed`
    /// (folded), given the flags that mean "visit on any change" in this pass.
    @inline(__always)
    func wantsVisit(changed: UInt64, anyChange: NodeFlags) -> Bool {
        hasPendingTraitUpdate
            || (changed != 0 && (!flags.isDisjoint(with: anyChange) || subtreeInterest & changed != 0))
    }

    // MARK: Slots

    /// Gives this node `collection` in a slot of its own; the nodes that shared its old slot
    /// below it move to the new one (they inherit from it).
    func ownSlot(_ collection: TraitCollection) {
        // The thread's box is borrowed, not retained: this runs for every node an update
        // gives a slot of its own.
        if flags.contains(.ownsSlot) {
            slotRef._withUnsafeGuaranteedRef { slot in
                guard slot.collection !== collection else { return }
                CurrentSlot.unretainedBox._withUnsafeGuaranteedRef { slot.write(collection, in: $0) }
            }
            return
        }
        let old = slotRef
        slotRef = CurrentSlot.unretainedBox._withUnsafeGuaranteedRef { box in
            old._withUnsafeGuaranteedRef { .passRetained(CollectionSlot(collection, origin: $0, in: box)) }
        }
        repointChildren(from: old, to: slotRef)
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
        repointChildren(from: old, to: parentSlot)
        old.release()
    }

    /// The walk found this node's collection is its parent's. A node new to the tree or
    /// already sharing joins at once; a region of its own joins the parent's only when the
    /// outermost update ends: until then this node keeps owning its slot, written with the
    /// parent's collection, so the nodes below it still find what they had in it (a callback
    /// may move one of them ahead of the walk, `keepCollection`).
    func shareParentSlot(_ parentSlot: Unmanaged<CollectionSlot>) {
        CurrentSlot.unretainedBox._withUnsafeGuaranteedRef { box in
            guard box.updateDepth > 0, !slotRef.isDefaults, slotRef.toOpaque() != parentSlot.toOpaque() else {
                return joinSlot(parentSlot)
            }
            ownSlot(parentSlot._withUnsafeGuaranteedRef { $0.collection })
            box.pendingJoins.append(.passRetained(self))
        }
    }

    /// After the outermost update: each node whose region was to join its parent's joins it,
    /// if its collection is still its parent's.
    static func joinPendingRegions(_ box: CurrentSlot.Box) {
        guard !box.pendingJoins.isEmpty else { return }
        let pending = box.pendingJoins
        box.pendingJoins = []
        for node in pending {
            node._withUnsafeGuaranteedRef { node in
                guard node.flags.contains(.ownsSlot), !node.flags.contains(.needsTraitUpdate),
                      let parentSlot = node.traitParent?.slotRef,
                      node.slotRef._withUnsafeGuaranteedRef({ mine in parentSlot._withUnsafeGuaranteedRef { $0.collection === mine.collection } })
                else { return }
                node.joinSlot(parentSlot)
            }
            node.release()
        }
    }

    /// Keeps this node's collection as it is whatever its ancestors' slots do next (it is
    /// moving, or an ancestor updates ahead of it): a node sharing a slot gets its own, with
    /// the collection it has. While an update runs, a slot may already show values the walk
    /// has not brought to this node, and keeping those would let its own update find nothing
    /// changed, skip its callbacks and leave the slot owners below it stale. So what it has is,
    /// as in a walk that visits every node in pre-order: what it took in during this pass, or
    /// its region's value now if the walk has gone past it, or else its region's value when
    /// the pass began.
    ///
    /// Between updates no slot is written, so the region's slot holds what the node has, and
    /// the node (with the nodes below it that share the slot) moves to the slot's snapshot:
    /// removing the views of a region one by one then makes one slot, not one per view.
    func keepCollection(passed: Bool? = nil) {
        guard !flags.contains(.ownsSlot), !slotRef.isDefaults else { return }
        CurrentSlot.unretainedBox._withUnsafeGuaranteedRef { keepCollection(passed: passed, box: $0) }
    }

    /// `keepCollection` with this thread's box borrowed, not retained.
    private func keepCollection(passed: Bool?, box: CurrentSlot.Box) {
        if box.updateDepth == 0 {
            let snapshot = slotRef._withUnsafeGuaranteedRef { $0.snapshot() }
            guard snapshot.toOpaque() != slotRef.toOpaque() else { return }
            let old = slotRef
            slotRef = snapshot.retain()
            repointChildren(from: old, to: snapshot)
            old.release()
            return
        }
        let kept = slotRef._withUnsafeGuaranteedRef { slot -> TraitCollection in
            if visitEpoch >= box.passEpoch { return slot.collection(atVersion: seenVersion) ?? slot.collection }
            if passed ?? (box.update?.epochPassing(self) != nil) { return slot.collection }
            return slot.collection(atPassStart: box.passEpoch)
        }
        ownSlot(kept)
    }

    /// Moves the children that share `old` (and theirs, recursively) to `new`. Nodes on the
    /// `defaults` slot stay: they have not been updated yet, and keep all defaults until then.
    private func repointChildren(from old: Unmanaged<CollectionSlot>, to new: Unmanaged<CollectionSlot>) {
        guard !old.isDefaults else { return }
        for entry in traitChildren where !entry.isTombstone {
            entry.node._withUnsafeGuaranteedRef { child in
                guard child.slotRef.toOpaque() == old.toOpaque(), !child.flags.contains(.ownsSlot) else { return }
                child.slotRef = new.retain()
                old.release()
                child.repointChildren(from: old, to: new)
            }
        }
    }
}

/// An entry of a node's `traitChildren`: the child, unretained (the structural relations own
/// it), and whether it is quiet: the child did not need a visit when the walk last scanned it,
/// and nothing has woken it since (`wakeInParent`). The walk skips a quiet entry without loading
/// the child, which on a large tree is a cache miss per skipped child.
struct TraitChild {
    /// The child's address; the low bits are `Quiet` (objects are at least 16-byte aligned).
    private var bits: UInt

    /// Quiet unless bindings react to every change (a child with a binding, or with one below
    /// it, is only this), or always.
    struct Quiet: OptionSet {
        let rawValue: UInt
        static let unlessBindingsReact = Quiet(rawValue: 1 << 0)
        static let always = Quiet(rawValue: 1 << 1)
    }

    init(_ child: TraitEnvironment) {
        bits = UInt(bitPattern: Unmanaged.passUnretained(child).toOpaque())
    }

    private init(bits: UInt) { self.bits = bits }

    /// A removed child's place (`TraitEnvironment.removeTraitChild`): no child, and quiet for
    /// every walk, so the walks pass over it without a check of their own.
    static let tombstone = TraitChild(bits: Quiet.unlessBindingsReact.rawValue | Quiet.always.rawValue)

    var isTombstone: Bool { address == 0 }

    /// The child's address as a number; 0 for a tombstone.
    var address: UInt { bits & ~UInt(3) }

    /// The child; not for a tombstone.
    var node: Unmanaged<TraitEnvironment> { .fromOpaque(toOpaque()) }

    func toOpaque() -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }

    func takeUnretainedValue() -> TraitEnvironment { node.takeUnretainedValue() }

    var quiet: Quiet {
        get { Quiet(rawValue: bits & 3) }
        set { bits = bits & ~UInt(3) | newValue.rawValue }
    }

    /// Passes over the entries from `i` on that are quiet for `skippable`, without loading
    /// their children; returns the index of the first that is not (or the count). Sets
    /// `binding` when one passed is quiet only while bindings do not react. On a large tree
    /// most children a walk scans are passed here, so this is its tightest loop.
    @inline(__always)
    static func pass(_ entries: UnsafeMutableBufferPointer<TraitChild>, from i: Int, _ skippable: Quiet,
                     binding: inout Bool) -> Int {
        var i = i
        var notAlways: UInt = 0
        while i < entries.count {
            let bits = entries[i].bits
            guard Quiet(rawValue: bits & 3).contains(skippable) else { break }
            assert(entries[i].isTombstone || entries[i].node._withUnsafeGuaranteedRef {
                $0.quietness.isSuperset(of: entries[i].quiet) && $0.flags.contains(.quietInParent)
            },
                   "a quiet entry must never hide a child that needs a visit")
            notAlways |= ~bits & Quiet.always.rawValue
            i += 1
        }
        if notAlways != 0 { binding = true }
        return i
    }
}

extension TraitEnvironment {
    /// The first index below `count` that `matches`, looking outward from `hint` (up, then
    /// down, a step further each time): a hint that is a few places off costs a few steps,
    /// which count toward making this node's child hints exact (`hintWasOff(by:)`).
    func indexOutward(from hint: Int, count: Int, _ matches: (Int) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        let start = min(max(hint, 0), count - 1)
        for distance in 0..<count {
            let up = start + distance, down = start - distance
            if up < count, matches(up) { hintWasOff(by: distance); return up }
            if down >= 0, matches(down) { hintWasOff(by: distance); return down }
            if up >= count, down < 0 { break }
        }
        return nil
    }
}
