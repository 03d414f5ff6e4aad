/// R6 and R7: the trait pass. Walks the trait tree top-down (pre-order, children in order),
/// recomputes what changed and fires change callbacks as it goes.
///
/// Work is proportional to what changed and to who cares: a clean subtree is skipped whole; a
/// node without overrides shares its parent's slot, so writing an owner's slot updates its
/// whole region at once (`TraitRegions.swift`), and the walk goes down only to the nodes that
/// need a visit; a node that overrides every changed trait stops the descent.
extension TraitEnvironment {
    /// Runs the trait walk over this node's subtree; the caller keeps the node alive.
    func walkTraits(context: UpdateContext) {
        context.beginWalk(self)
        updateTraits(parentSlot: traitParent?.slotRef, parentOld: nil, parentChanged: TraitSet(), context: context)
        context.endWalk()
    }

    /// Updates this node, whose parent's slot is `parentSlot` (nil at a root) and whose
    /// parent had `parentOld` before this pass and changed `parentChanged`, then its children.
    func updateTraits(parentSlot: Unmanaged<CollectionSlot>?, parentOld: TraitCollection?, parentChanged: TraitSet,
                      context: UpdateContext) {
        let needsSelf = needsRecompute
        let parentVersion = parentSlot?._withUnsafeGuaranteedRef { $0.version } ?? 0
        // A callback already brought this node up to date with the parent's value
        // (`updateTraitsIfNeeded`): nothing new reaches it or its subtree.
        var parentChanged = parentChanged
        if !needsSelf, parentSlot != nil, seenVersion == parentVersion { parentChanged = TraitSet() }
        guard needsSelf || !parentChanged.isEmpty || flags.contains(.subtreeNeedsTraitUpdate) else { return }
        // Visited in this pass already (a callback's `updateTraitsIfNeeded` ran ahead of the
        // walk; nested passes have later epochs): what it took in then is what it has.
        let passEpoch = context.current.passEpoch
        let tookInThisPass = visitEpoch >= passEpoch
        visitEpoch = context.epoch
        let parentVersionBefore = seenVersion
        seenVersion = parentVersion
        let first = !flags.contains(.hasUpdated)
        flags.remove([.needsTraitUpdate, .subtreeNeedsTraitUpdate])
        flags.insert(.hasUpdated)

        // A node sharing its parent's slot already shows the parent's new collection; what it
        // had before is what it took in earlier in this pass, or else what its region had when
        // the pass began (a version taken in before this pass may be older than that: the walk
        // passes nodes without a visit).
        let shared = !flags.contains(.ownsSlot) && parentSlot?.toOpaque() == slotRef.toOpaque()
        if shared, !tookInThisPass, let old = parentOld.map(Unmanaged.passUnretained),
           slotRef._withUnsafeGuaranteedRef({ $0.collectionRef(atPassStart: passEpoch) }).toOpaque() == old.toOpaque() {
            // The common case, the region had the parent's previous collection: the parent
            // holds it while its children are visited, so it is used without a reference of
            // this node's own (on a large tree one atomic increment and decrement per visit).
            return old._withUnsafeGuaranteedRef {
                react(previous: $0, shared: true, needsSelf: needsSelf, first: first, parentSlot: parentSlot,
                      parentOld: parentOld, parentChanged: parentChanged, context: context)
            }
        }
        let previous = shared
            ? slotRef._withUnsafeGuaranteedRef {
                tookInThisPass ? $0.collection(atVersion: parentVersionBefore) ?? parentOld ?? $0.collection
                    : $0.collection(atPassStart: passEpoch)
            }
            : traitCollection
        react(previous: previous, shared: shared, needsSelf: needsSelf, first: first, parentSlot: parentSlot,
              parentOld: parentOld, parentChanged: parentChanged, context: context)
    }

    /// The rest of a visit, once `updateTraits` knows what this node had before the pass:
    /// what changed, the reactions to it, then the children.
    @inline(never)
    private func react(previous: TraitCollection, shared: Bool, needsSelf: Bool, first: Bool,
                       parentSlot: Unmanaged<CollectionSlot>?, parentOld: TraitCollection?, parentChanged: TraitSet,
                       context: UpdateContext) {
        var changed = TraitSet()
        if needsSelf {
            changed = recompute(from: previous, parentSlot: parentSlot, parentOld: parentOld, parentChanged: parentChanged)
            // A node's first collection is no trait changing: were it counted, a callback that
            // adds a node in every pass would read as the screen's traits never settling.
            if first { context.noteNew(self) } else if !changed.isEmpty { context.changedTraits.formUnion(changed) }
        } else if !parentChanged.isEmpty {
            // Without a full recompute, `changed` is within what an ancestor's full recompute
            // already recorded.
            if shared {
                changed = previous === parentOld ? parentChanged : traitCollection.changedTraitSet(from: previous)
            } else if overrideStorage.map({ !parentChanged.isSubset(of: $0.mask) }) ?? true {
                changed = recompute(from: previous, parentSlot: parentSlot, parentOld: parentOld, parentChanged: parentChanged)
            }
        }
        if !changed.isEmpty { traitsDidChange(from: previous, changed: changed, context: context) }
        if first, flags.contains(.wantsFirstUpdateCallback) {
            context.prepareForCallout()
            context.run { try didFirstUpdateTraits() }
        }
        if traitChildren.isEmpty {
            // A leaf, the most common node a walk visits: its summary is its own.
            setSubtreeSummary(ownSummaryFlags, interest: interestSummary)
        } else {
            updateChildren(previous: previous, changed: changed, context: context)
        }
    }

    /// Whether this node's own collection must be computed again from its parent's: it
    /// changed (overrides, a move, a screen's traits) or was never computed.
    var needsRecompute: Bool { flags.contains(.needsTraitUpdate) || !flags.contains(.hasUpdated) }

    /// Computes this node's collection from its parent's (or, at a root, from its root
    /// collection), shares the parent's slot when nothing here differs, else owns one; returns
    /// what changed since `previous`.
    ///
    /// `parentChanged` is what changed from `parentOld` to the parent's collection: a node
    /// that had the parent's old collection and now shares its new one changed by exactly
    /// that, with no comparison of the two (at the first update, most nodes).
    ///
    /// A node with nothing of its own to apply (`inheritsUnchanged`) shares its parent's slot
    /// without taking a reference to the parent's collection: the parent's slot holds it, and
    /// nothing here runs a callback. Most nodes of a tree are such, and two atomic increments
    /// and decrements each were a tenth of the first update's walk.
    private func recompute(from previous: TraitCollection, parentSlot: Unmanaged<CollectionSlot>?,
                           parentOld: TraitCollection? = nil, parentChanged: TraitSet = TraitSet()) -> TraitSet {
        if inheritsUnchanged, let parentSlot {
            shareParentSlot(parentSlot)
            return parentSlot._withUnsafeGuaranteedRef { $0.collectionRef }._withUnsafeGuaranteedRef {
                Self.changes(to: $0, inherited: true, from: previous, parentOld: parentOld, parentChanged: parentChanged)
            }
        }
        let parentCollection = parentSlot?._withUnsafeGuaranteedRef { $0.collection } ?? rootCollection()
        let new = collection(inheriting: parentCollection)
        let inherited = new === parentCollection
        if inherited, let parentSlot { shareParentSlot(parentSlot) } else { ownSlot(new) }
        // It had its parent's collection: the new one differs from it at most where this
        // node's own traits apply (an override set on one view of a large tree compares one
        // value, not one per trait defined).
        if previous === parentCollection, let mask = ownTraitMask {
            return new.changedTraitSet(from: previous, among: mask)
        }
        return Self.changes(to: new, inherited: inherited, from: previous, parentOld: parentOld, parentChanged: parentChanged)
    }

    /// What changed from `previous` to `new`; `inherited` when `new` is the parent's
    /// collection, which changed by `parentChanged` since `parentOld`.
    @inline(__always)
    private static func changes(to new: TraitCollection, inherited: Bool, from previous: TraitCollection,
                                parentOld: TraitCollection?, parentChanged: TraitSet) -> TraitSet {
        if new === previous { return TraitSet() }
        if inherited, previous === parentOld { return parentChanged }
        return new.changedTraitSet(from: previous)
    }

    /// Visits the children that need it, handing them this node's slot and previous
    /// collection, coping with callbacks that add, remove or move children meanwhile (after a
    /// change that moves entries, `traitChildMoves`, or takes out the child just visited, the
    /// scan restarts, skipping children already visited), and
    /// makes this node's subtree summary exact again. Children are visited unretained; the
    /// context pins them only if a callback runs. A child whose entry is quiet is passed over
    /// without being loaded; one found quiet gets its entry marked (`TraitChild`).
    private func updateChildren(previous: TraitCollection, changed: TraitSet, context: UpdateContext) {
        let changedSummary = changed.folded
        let epoch = context.epoch
        let bindingsReact = BindingHints.mayImplement(.traitCollectionDidChange)
        let anyChange: NodeFlags = bindingsReact ? [.subtreeVisitOnAnyChange, .subtreeHasBinding] : .subtreeVisitOnAnyChange
        let skippable: TraitChild.Quiet = bindingsReact ? .always : .unlessBindingsReact
        let callouts = context.callouts
        var summary = ownSummaryFlags
        var interest = interestSummary
        var i = 0
        // What the quiet children passed add to the summary: at most a binding below one.
        var quietBinding = false
        // The mutable form borrows the array in place (the other would retain its buffer); an
        // empty one shares Swift's empty storage, which the mutable form would replace.
        if !traitChildren.isEmpty {
            i = traitChildren.withUnsafeMutableBufferPointer {
                TraitChild.pass($0, from: 0, skippable, binding: &quietBinding)
            }
        }
        while i < traitChildren.count {
            let entry = traitChildren[i]
            if entry.quiet.contains(skippable) {
                i = traitChildren.withUnsafeMutableBufferPointer { TraitChild.pass($0, from: i, skippable, binding: &quietBinding) }
                continue
            }
            i += 1
            let child = entry.node
            let visit = child._withUnsafeGuaranteedRef { child in
                if child.visitEpoch != epoch { return child.wantsVisit(changed: changedSummary, anyChange: anyChange) }
                // Visited in this pass and made dirty since (a callback moved it here from
                // where the walk had been, or changed it): this node's visit cleared the
                // flags above it, so they are set again for the next pass.
                if child.hasPendingTraitUpdate { child.markAncestors(.subtreeNeedsTraitUpdate) }
                return false
            }
            if visit {
                let moves = traitChildMoves
                context.push(child)
                child._withUnsafeGuaranteedRef {
                    $0.updateTraits(parentSlot: slotRef, parentOld: previous, parentChanged: changed, context: context)
                }
                context.pop()
                if traitChildMoves != moves || i > traitChildren.count || traitChildren[i - 1].address != entry.address {
                    i = 0
                    continue
                }
            }
            child._withUnsafeGuaranteedRef {
                let quiet = $0.quietness
                if quiet != traitChildren[i - 1].quiet {
                    traitChildren[i - 1].quiet = quiet
                    if quiet.isEmpty { $0.flags.remove(.quietInParent) } else { $0.flags.insert(.quietInParent) }
                    $0.quietIndexHint = childHint(at: i - 1)
                }
                summary.formUnion($0.flags.intersection([.subtreeVisitOnAnyChange, .subtreeHasBinding]))
                interest |= $0.subtreeInterest
            }
        }
        if quietBinding { summary.insert(.subtreeHasBinding) }
        // A callback may have added to this summary meanwhile (`summaryDidGrow`) after the
        // child concerned was scanned: then the summary only grows.
        if context.callouts != callouts {
            summary.formUnion(flags)
            interest |= subtreeInterest
        }
        setSubtreeSummary(summary, interest: interest)
    }

    /// Makes this node's subtree summary exact: `summary`'s two subtree flags and `interest`.
    @inline(__always)
    private func setSubtreeSummary(_ summary: NodeFlags, interest: UInt64) {
        flags = flags.subtracting([.subtreeVisitOnAnyChange, .subtreeHasBinding]).union(summary)
        subtreeInterest = interest
    }

    /// R7/R8/R9 reactions to a change: registrations in order, the legacy callback, automatic
    /// trait tracking, and redraw of dynamic colors.
    ///
    /// `extras` is loaded only when something in it may care (a folded mask meets the change):
    /// on a large tree each one loaded is a cache miss. The caller keeps this node alive across
    /// callbacks (the walk pins it), and `extras` lives as long as its node, so it is used
    /// unretained.
    func traitsDidChange(from old: TraitCollection, changed: TraitSet, context: UpdateContext) {
        let hits = interestSummary & changed.folded
        let bound = flags.contains(.hasBinding) && BindingHints.mayImplement(.traitCollectionDidChange)
        let legacy = !flags.contains(.engineClass) || (bound && binding?.implements(.traitCollectionDidChange) == true)
        if hits != 0, let extras = extras.map(Unmanaged.passUnretained) {
            extras._withUnsafeGuaranteedRef { extras in
                let registered = hits & extras.registeredFold != 0
                if registered || legacy || flags.contains(.wantsInternalTraitChange) {
                    callChangeHandlers(registered ? extras.first.map(Unmanaged.passUnretained) : nil, registered && !extras.later.isEmpty ? extras.later : nil,
                                       from: old, changed: changed, legacy: legacy, context: context)
                }
                if hits & extras.layoutFold != 0, extras.layoutTraits.intersects(changed) { setNeedsLayout() }
                if hits & extras.displayFold != 0, extras.displayTraits.intersects(changed) { setNeedsDisplay() }
                if hits & extras.constraintsFold != 0, extras.constraintsTraits.intersects(changed),
                   let view = self as? View {
                    view.setNeedsUpdateConstraints()
                }
            }
        } else if legacy || flags.contains(.wantsInternalTraitChange) {
            callChangeHandlers(nil, nil, from: old, changed: changed, legacy: legacy, context: context)
        }
        if flags.contains(.hasDynamicColor) { colorAppearanceDidChange(changed) }
    }

    /// Calls, with this node's collection current: the registrations `first` and `later`
    /// that watch a changed trait, in order, but none a handler ended meanwhile; the legacy
    /// callback; the engine's own reaction. `first` and `later` are the node's registrations
    /// taken before any handler runs (a handler may register or unregister meanwhile).
    /// `later` is the caller's reference to the array, which keeps those alive; `first` is not
    /// retained (an atomic increment and decrement per fired handler): one a handler ends
    /// stays alive until the update ends (`unregisterForTraitChanges`), and the node, pinned
    /// by the walk, holds it otherwise.
    private func callChangeHandlers(_ first: Unmanaged<TraitChangeRegistration>?, _ later: [TraitChangeRegistration]?,
                                    from old: TraitCollection, changed: TraitSet, legacy: Bool, context: UpdateContext) {
        context.prepareForCallout()
        let saved = context.current.enter(self)
        defer { context.current.leave(saved) }
        if let first { fire(first, from: old, changed: changed, context: context) }
        later?.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: Unmanaged<TraitChangeRegistration>.self) { all in
                for registration in all { fire(registration, from: old, changed: changed, context: context) }
            }
        }
        if legacy {
            context.run { try dispatch(.traitCollectionDidChange, argument: old) { traitCollectionDidChange(old) } }
        }
        if flags.contains(.wantsInternalTraitChange) { context.run { try internalTraitsDidChange() } }
    }

    /// Fires `registration` if it watches a changed trait and no handler ended it meanwhile.
    @inline(__always)
    private func fire(_ registration: Unmanaged<TraitChangeRegistration>, from old: TraitCollection,
                      changed: TraitSet, context: UpdateContext) {
        guard registration._withUnsafeGuaranteedRef({ !$0.ended && $0.traits.intersects(changed) }) else { return }
        do { try TraitChangeRegistration.fire(registration, self, previous: old) } catch { context.record(error) }
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
        chain.reverse()
        if let first = chain.firstIndex(where: \.needsRecompute) {
            updateAncestorsNow(Array(chain[first...]), context: context)
        }
        flags.insert(.needsTraitUpdate)
        wakeInParent()
        walkTraits(context: context)
    }

    /// Recomputes `stale` (ancestors of this node from the first stale one down, root first)
    /// without visiting their other children: those, and this node, keep their collections
    /// (each in a slot of its own where it shared one) and are marked, so they are compared
    /// against the new values at their own update.
    private func updateAncestorsNow(_ stale: [TraitEnvironment], context: UpdateContext) {
        let previous = stale.map(\.traitCollection)
        for (i, ancestor) in stale.enumerated() {
            let next = i + 1 < stale.count ? stale[i + 1] : self
            for child in ancestor.traitChildNodes where child !== next {
                child.keepCollection()
                child.markNeedsTraitUpdate()
            }
        }
        keepCollection()
        for (ancestor, old) in zip(stale, previous) {
            let parentSlot = ancestor.traitParent?.slotRef
            let changed = ancestor.recompute(from: old, parentSlot: parentSlot)
            ancestor.seenVersion = parentSlot?._withUnsafeGuaranteedRef { $0.version } ?? 0
            ancestor.flags.remove(.needsTraitUpdate)
            ancestor.flags.insert(.hasUpdated)
            if !changed.isEmpty { ancestor.traitsDidChange(from: old, changed: changed, context: context) }
        }
    }
}
