/// R6 and R7: the trait pass. Walks the trait tree top-down (pre-order, children in order),
/// recomputes what changed and fires change callbacks as it goes.
///
/// Work is proportional to what changed: a clean subtree is skipped whole; a node without
/// overrides shares its parent's collection and inherits its parent's change mask; a node
/// that overrides every changed trait stops the descent (nothing below it can change).
extension TraitEnvironment {
    /// Runs the trait walk over this node's subtree; the caller keeps the node alive.
    func walkTraits(parentCollection: TraitCollection?, parentChanged: TraitSet, context: UpdateContext) {
        context.beginWalk(self)
        withExtendedLifetime(parentCollection) {
            updateTraits(parentCollection: parentCollection.map { .passUnretained($0) }, parentChanged: parentChanged,
                         context: context)
        }
        context.endWalk()
    }

    /// Updates this node from `parentCollection` (nil at a root), knowing which of the parent's
    /// traits changed, then its children. The parent's collection comes unretained: the
    /// parent holds it for the whole visit (see `UpdateContext`).
    func updateTraits(parentCollection: Unmanaged<TraitCollection>?, parentChanged: TraitSet, context: UpdateContext) {
        let needsSelf = flags.contains(.needsTraitUpdate) || !flags.contains(.hasUpdated)
        // A node that already shares the parent's collection (a callback brought it up to date
        // with `updateTraitsIfNeeded`) has nothing left to change.
        var parentChanged = parentChanged
        if !needsSelf, let parentCollection, collectionRef.toOpaque() == parentCollection.toOpaque() {
            parentChanged = TraitSet()
        }
        guard needsSelf || !parentChanged.isEmpty || flags.contains(.subtreeNeedsTraitUpdate) else { return }
        visitEpoch = context.epoch
        let first = !flags.contains(.hasUpdated)
        flags.remove([.needsTraitUpdate, .subtreeNeedsTraitUpdate])
        flags.insert(.hasUpdated)

        // The common case: a node without overrides whose parent changed shares the parent's
        // collection and its change mask; the reference counts are settled later, in bulk.
        if !needsSelf, overrideStorage == nil, !parentChanged.isEmpty, let parentCollection {
            let old = collectionRef
            collectionRef = parentCollection
            context.deferRetain(parentCollection)
            old._withUnsafeGuaranteedRef { traitsDidChange(from: $0, changed: parentChanged, context: context) }
            context.deferRelease(old)
            if first, flags.contains(.wantsFirstUpdateCallback) {
                context.prepareForCallout()
                context.run { try didFirstUpdateTraits() }
            }
            updateChildren(changed: parentChanged, context: context)
            return
        }
        let old = traitCollection
        let parent = parentCollection?.takeUnretainedValue() ?? rootCollection()
        let (new, changed) = recompute(old: old, parent: parent, parentChanged: parentChanged, full: needsSelf)
        traitCollection = new
        if !changed.isEmpty {
            // Without a full recompute, `changed` is a subset of what an ancestor's full
            // recompute already recorded: skip the write.
            if needsSelf { context.changedTraits.formUnion(changed) }
            traitsDidChange(from: old, changed: changed, context: context)
        }
        if first, flags.contains(.wantsFirstUpdateCallback) {
            context.prepareForCallout()
            context.run { try didFirstUpdateTraits() }
        }
        updateChildren(changed: changed, context: context)
    }

    private func recompute(old: TraitCollection, parent: TraitCollection, parentChanged: TraitSet, full: Bool)
        -> (TraitCollection, TraitSet)
    {
        if full {
            let new = collection(inheriting: parent)
            return (new, new.changedTraitSet(from: old))
        }
        if parentChanged.isEmpty { return (old, parentChanged) }
        guard let overrideStorage else { return (parent, parentChanged) }
        let changed = parentChanged.subtracting(overrideStorage.mask)
        return changed.isEmpty ? (old, changed) : (parent.applying(overrideStorage), changed)
    }

    /// Visits the children, handing them this node's collection, coping with callbacks that
    /// add, remove or move children meanwhile (after any change to the array the scan
    /// restarts, skipping children already visited) or bring this node up to date
    /// (`updateTraitsIfNeeded`: the children still to visit get the new collection).
    /// Children are visited unretained; the context pins them only if a callback runs.
    private func updateChildren(changed: TraitSet, context: UpdateContext) {
        var collection = collectionRef
        context.handDown(collection)
        let changes = !changed.isEmpty
        let changedSummary = changed.folded
        let epoch = context.epoch
        let leafMask = BindingHints.mayImplement(.traitCollectionDidChange)
            ? NodeFlags.plainLeafMask.union(.hasBinding) : NodeFlags.plainLeafMask
        var leaves = LeafCounts()
        var i = 0
        while i < traitChildren.count {
            let entry = traitChildren[i]
            i += 1
            if entry._withUnsafeGuaranteedRef({ child in
                child.visitEpoch == epoch
                    || (changes && child.updateAsPlainLeaf(collection: collection, changed: changedSummary, mask: leafMask,
                                                           epoch: epoch, counts: &leaves, context: context))
            }) { continue }
            leaves.settle(taking: collection, in: context)
            context.push(entry)
            entry._withUnsafeGuaranteedRef {
                $0.updateTraits(parentCollection: collection, parentChanged: changed, context: context)
            }
            context.pop()
            if i > traitChildren.count || traitChildren[i - 1].toOpaque() != entry.toOpaque() { i = 0 }
            if collectionRef.toOpaque() != collection.toOpaque() {
                collection = collectionRef
                context.handDown(collection)
            }
        }
        leaves.settle(taking: collection, in: context)
    }

    /// The whole visit of most nodes: a leaf without overrides whose parent's collection
    /// changed, that nobody watches and no callback concerns, takes the new collection and is
    /// done; its reference counts go to `counts`. False when the node needs the full visit.
    @inline(__always)
    private func updateAsPlainLeaf(collection: Unmanaged<TraitCollection>, changed: UInt64, mask: NodeFlags,
                                   epoch: UInt32, counts: inout LeafCounts, context: UpdateContext) -> Bool {
        guard flags.intersection(mask) == NodeFlags.plainLeaf, overrideStorage == nil,
              interestSummary & changed == 0 else { return false }
        visitEpoch = epoch
        flags.remove(.subtreeNeedsTraitUpdate)
        if collectionRef.toOpaque() == collection.toOpaque() { return true }
        counts.drop(collectionRef, in: context)
        collectionRef = collection
        counts.taken += 1
        return true
    }

    /// R7/R8/R9 reactions to a change: registrations in order, the legacy callback, automatic
    /// trait tracking, and redraw of dynamic colors.
    func traitsDidChange(from old: TraitCollection, changed: TraitSet, context: UpdateContext) {
        let interested = interestSummary & changed.folded != 0 && extras?.interestedTraits.intersects(changed) == true
        let bound = flags.contains(.hasBinding) && BindingHints.mayImplement(.traitCollectionDidChange)
        // The common case, a plain node nobody watches: flags and one inline mask, no loads.
        guard interested || bound || !flags.isDisjoint(with: [.wantsInternalTraitChange, .hasDynamicColor])
                || !flags.contains(.engineClass) else { return }
        let extras = self.extras
        let registered = interested && extras?.registeredTraits.intersects(changed) == true
        let legacy = !flags.contains(.engineClass) || (bound && extras?.binding?.implements(.traitCollectionDidChange) == true)
        if registered || legacy || flags.contains(.wantsInternalTraitChange) {
            context.prepareForCallout()
            callChangeHandlers(from: old, changed: changed, context: context)
        }
        if interested, let extras {
            if extras.layoutTraits.intersects(changed) { setNeedsLayout() }
            if extras.displayTraits.intersects(changed) { setNeedsDisplay() }
        }
        if flags.contains(.hasDynamicColor) { colorAppearanceDidChange(changed) }
    }

    private func callChangeHandlers(from old: TraitCollection, changed: TraitSet, context: UpdateContext) {
        context.current.withCurrent(self) {
            if let extras, extras.registeredTraits.intersects(changed) {
                for registration in extras.registrations where registration.traits.intersects(changed) {
                    context.run { try registration.fire(self, previous: old) }
                }
            }
            context.run {
                try dispatch(.traitCollectionDidChange, previous: old) { traitCollectionDidChange(old) }
            }
            if flags.contains(.wantsInternalTraitChange) { context.run { try internalTraitsDidChange() } }
        }
    }

    /// Brings this node's collection up to date now, with its ancestors first where they are
    /// stale, then its subtree; callbacks run synchronously (R6 `updateTraitsIfNeeded`).
    func updateTraitsNow(context: UpdateContext) {
        var chain: [TraitEnvironment] = []
        var node = traitParent
        while let n = node {
            chain.append(n)
            node = n.traitParent
        }
        // Ancestors recompute without visiting their other children; those are marked so the
        // next update gives them a full recompute against the new value.
        var parentCollection: TraitCollection? = nil
        for ancestor in chain.reversed() {
            if ancestor.flags.contains(.needsTraitUpdate) || !ancestor.flags.contains(.hasUpdated) {
                let old = ancestor.traitCollection
                ancestor.traitCollection = ancestor.collection(inheriting: parentCollection ?? ancestor.rootCollection())
                ancestor.flags.remove(.needsTraitUpdate)
                ancestor.flags.insert(.hasUpdated)
                let changed = ancestor.traitCollection.changedTraitSet(from: old)
                if !changed.isEmpty {
                    for child in ancestor.traitChildNodes { child.markNeedsTraitUpdate() }
                    ancestor.traitsDidChange(from: old, changed: changed, context: context)
                }
            }
            parentCollection = ancestor.traitCollection
        }
        flags.insert(.needsTraitUpdate)
        walkTraits(parentCollection: parentCollection, parentChanged: TraitSet(), context: context)
    }
}
