import Synchronization

/// R6 and R7: the trait pass. Walks the trait tree top-down (pre-order, children in order),
/// recomputes what changed and fires change callbacks as it goes.
///
/// Work is proportional to what changed: a clean subtree is skipped whole; a node without
/// overrides shares its parent's collection and inherits its parent's change mask; a node
/// that overrides every changed trait stops the descent (nothing below it can change).
final class UpdateContext {
    /// The first error a callback raised; the pass completes and the caller rethrows it.
    private(set) var firstError: (any Error)?
    /// Every trait that changed value somewhere during this context.
    @exclusivity(unchecked) var changedTraits = TraitSet()
    private(set) var epoch: UInt32
    /// This thread's `current` slot, fetched once per update instead of once per callback.
    let current = CurrentSlot.box

    init() { epoch = passEpochs.add(1, ordering: .relaxed).newValue }

    /// Starts another pass of the same update: a new epoch, a fresh change record.
    func beginPass() {
        epoch = passEpochs.add(1, ordering: .relaxed).newValue
        changedTraits = TraitSet()
    }

    func record(_ error: any Error) {
        if firstError == nil { firstError = error }
    }

    /// Runs a callback, recording its error instead of stopping the pass.
    func run(_ body: () throws -> Void) {
        do { try body() } catch { record(error) }
    }

    func rethrow() throws {
        if let firstError { throw firstError }
    }
}

private let passEpochs = Atomic<UInt32>(0)

extension TraitEnvironment {
    /// Updates this node from `parentCollection` (nil at a root), knowing which of the parent's
    /// traits changed, then its children.
    func updateTraits(parentCollection: TraitCollection?, parentChanged: TraitSet, context: UpdateContext) {
        let needsSelf = flags.contains(.needsTraitUpdate) || !flags.contains(.hasUpdated)
        guard needsSelf || !parentChanged.isEmpty || flags.contains(.subtreeNeedsTraitUpdate) else { return }
        visitEpoch = context.epoch
        let first = !flags.contains(.hasUpdated)
        flags.remove([.needsTraitUpdate, .subtreeNeedsTraitUpdate])
        flags.insert(.hasUpdated)

        // The common case: a node without overrides whose parent changed shares the parent's
        // collection and its change mask. Swap the reference by hand: one retain, one release.
        if !needsSelf, overrideStorage == nil, !parentChanged.isEmpty, let parentCollection {
            let old = collectionRef
            collectionRef = .passRetained(parentCollection)
            old._withUnsafeGuaranteedRef { traitsDidChange(from: $0, changed: parentChanged, context: context) }
            old.release()
            if first, flags.contains(.wantsFirstUpdateCallback) { context.run { try didFirstUpdateTraits() } }
            updateChildren(collection: parentCollection, changed: parentChanged, context: context)
            return
        }
        let old = traitCollection
        let (new, changed) = recompute(old: old, parent: parentCollection ?? rootCollection(),
                                       parentChanged: parentChanged, full: needsSelf)
        traitCollection = new
        if !changed.isEmpty {
            // Without a full recompute, `changed` is a subset of what an ancestor's full
            // recompute already recorded: skip the write (and its exclusivity check).
            if needsSelf { context.changedTraits.formUnion(changed) }
            traitsDidChange(from: old, changed: changed, context: context)
        }
        if first, flags.contains(.wantsFirstUpdateCallback) { context.run { try didFirstUpdateTraits() } }
        updateChildren(collection: new, changed: changed, context: context)
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

    /// Visits the children, coping with callbacks that add, remove or move children meanwhile:
    /// after any change to the array the scan restarts, skipping children already visited.
    private func updateChildren(collection: TraitCollection, changed: TraitSet, context: UpdateContext) {
        var i = 0
        while i < traitChildren.count {
            let entry = traitChildren[i]
            let child = entry.takeUnretainedValue()
            i += 1
            if child.visitEpoch == context.epoch { continue }
            child.updateTraits(parentCollection: collection, parentChanged: changed, context: context)
            if i > traitChildren.count || traitChildren[i - 1].toOpaque() != entry.toOpaque() { i = 0 }
        }
    }

    /// R7/R8/R9 reactions to a change: registrations in order, the legacy callback, automatic
    /// trait tracking, and redraw of dynamic colors.
    func traitsDidChange(from old: TraitCollection, changed: TraitSet, context: UpdateContext) {
        let interested = interestedTraits.intersects(changed)
        let bound = flags.contains(.hasBinding)
        // The common case, a plain node nobody watches: flags and one inline mask, no loads.
        guard interested || bound || !flags.isDisjoint(with: [.wantsInternalTraitChange, .hasDynamicColor])
                || !flags.contains(.engineClass) else { return }
        let extras = self.extras
        let registered = interested && extras?.registeredTraits.intersects(changed) == true
        let legacy = !flags.contains(.engineClass) || (bound && extras?.binding?.implements(.traitCollectionDidChange) == true)
        if registered || legacy || flags.contains(.wantsInternalTraitChange) {
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
        updateTraits(parentCollection: parentCollection, parentChanged: TraitSet(), context: context)
    }
}
