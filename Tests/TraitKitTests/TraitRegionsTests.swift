import Testing
@testable import TraitKit

/// Nodes without overrides share their parent's slot, and the walk enters only the subtrees
/// whose summary says a node there reacts (TraitRegions.swift). These check that what a user
/// sees does not depend on which nodes the walk skipped.
@Suite("Trait regions: shared slots and subtree summaries")
struct TraitRegionsTests {
    @Test func aRegionSharesOneCollectionAndSplitsWhereAnOverrideIs() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let middle = try chain(under: top, count: 5)
        let leaf = try chain(under: middle, count: 5)
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(leaf.traitCollection === top.traitCollection)
        middle.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(leaf.traitCollection === middle.traitCollection)
        #expect(leaf.traitCollection.myAppTheme == .pastel)
        #expect(middle.superview!.traitCollection.myAppTheme == .bold)
        middle.traitOverrides[MyAppThemeTrait.self] = nil
        try stage.app.update()
        #expect(leaf.traitCollection === top.traitCollection)
        #expect(leaf.traitCollection.myAppTheme == .bold)
    }

    /// Views removed from a region between updates keep its collection in one shared
    /// snapshot slot (CollectionSlot.snapshot): no slot per view, and nothing the region's
    /// next update writes reaches them. A removed view put back takes its new place's
    /// collection at the next update, as do the views below it, and fires its handler once.
    @Test func viewsRemovedBetweenUpdatesShareOneSnapshot() throws {
        let stage = Stage()
        let top = try stage.view("top")
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        let views = try (0..<4).map { try stage.view("v\($0)", in: top) }
        let below = try chain(under: views[0], count: 3)
        var seen: [MyAppTheme] = []
        try below.registerForTraitChanges([MyAppThemeTrait.self]) { node, _ in seen.append(node.traitCollection.myAppTheme) }
        try stage.app.update()
        #expect(seen == [.bold])
        seen.removeAll()
        let region = top.slotRef.toOpaque()
        for view in views { view.removeFromSuperview() }
        let snapshot = views[0].slotRef.toOpaque()
        #expect(snapshot != region)
        #expect(views.allSatisfy { $0.slotRef.toOpaque() == snapshot && !$0.flags.contains(.ownsSlot) })
        #expect(below.slotRef.toOpaque() == snapshot)
        top.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(views.allSatisfy { $0.traitCollection.myAppTheme == .bold })
        #expect(below.traitCollection.myAppTheme == .bold && seen.isEmpty)
        try top.addSubview(views[0])
        #expect(below.traitCollection.myAppTheme == .bold)
        try stage.app.update()
        #expect(views[0].traitCollection.myAppTheme == .pastel)
        #expect(below.traitCollection === top.traitCollection)
        #expect(seen == [.pastel])
        #expect(views[1].traitCollection.myAppTheme == .bold)
    }

    @Test func deepNodesThatReactToEveryChangeAreStillReached() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let deep = try chain(under: top, count: 8)
        let subclass = LoggingView(name: "subclass")
        try deep.addSubview(subclass)
        let swatch = View(name: "swatch")
        swatch.backgroundColor = Color { $0.userInterfaceStyle == .dark ? .black : .white }
        try deep.addSubview(swatch)
        try stage.app.update()
        subclass.log.removeAll()
        top.overrideUserInterfaceStyle = .dark
        try top.updateTraitsIfNeeded()  // the trait walk alone: the display pass has not run
        #expect(subclass.log == ["didChange"])
        #expect(swatch.flags.contains(.needsDisplay))
    }

    @Test func aRegistrationMadeDuringAWalkIsReachedByTheNextOne() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let early = try chain(under: top, count: 3)
        let late = try chain(under: top, count: 3)
        var fired: [String] = []
        try late.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in
            // `early` was passed over by this walk (nobody watched it then).
            if fired.isEmpty {
                _ = try? early.registerForTraitChanges([MyAppThemeTrait.self]) { _, previous in
                    fired.append("early:\(previous.myAppTheme)")
                }
            }
            fired.append("late")
        }
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(fired == ["late"])
        top.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(fired == ["late", "early:bold", "late"])
    }

    @Test func aMovedSubtreeKeepsItsCollectionUntilTheUpdate() throws {
        let stage = Stage()
        let left = try stage.view("left"), right = try stage.view("right")
        left.traitOverrides[MyAppThemeTrait.self] = .bold
        right.traitOverrides[MyAppThemeTrait.self] = .pastel
        let moving = try chain(under: left, count: 2)
        let below = try chain(under: moving, count: 3)
        try stage.app.update()
        var previous: [MyAppTheme] = []
        try below.registerForTraitChanges([MyAppThemeTrait.self]) { _, old in previous.append(old.myAppTheme) }
        try right.addSubview(moving)
        // Mutations show only after an update (R6), even when the region they left changes.
        left.traitOverrides[MyAppThemeTrait.self] = .standard
        try left.updateTraitsIfNeeded()
        #expect(below.traitCollection.myAppTheme == .bold)
        try stage.app.update()
        #expect(below.traitCollection.myAppTheme == .pastel)
        #expect(previous == [.bold])
    }

    @Test func aViewThatOutlivesItsAncestorsKeepsItsCollectionUntilItIsAddedAgain() throws {
        let stage = Stage()
        var top: View? = try stage.view("top")
        top!.traitOverrides[MyAppThemeTrait.self] = .bold
        let leaf = try chain(under: chain(under: top!, count: 3), count: 1)
        try stage.app.update()
        var previous: [MyAppTheme] = []
        try leaf.registerForTraitChanges([MyAppThemeTrait.self]) { _, old in previous.append(old.myAppTheme) }
        top!.removeFromSuperview()
        top = nil  // frees the chain above `leaf`, which the test still holds
        #expect(leaf.superview == nil)
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(leaf.traitCollection.myAppTheme == .bold)
        try stage.root.view.addSubview(leaf)
        try stage.app.update()
        #expect(leaf.traitCollection.myAppTheme == .pastel)
        #expect(previous == [.bold])
    }

    @Test func aSummaryNamingTraitsNobodyWatchesAnyMoreCostsNothingWrong() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let deep = try chain(under: top, count: 4)
        var fired = 0
        let token = try deep.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in fired += 1 }
        deep.unregisterForTraitChanges(token)
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(fired == 0)
        #expect(deep.traitCollection.myAppTheme == .bold)
        // The walk made the summaries exact again: the subtree no longer claims the trait.
        #expect(top.subtreeInterest & TraitSet([MyAppThemeTrait.trait]).folded == 0)
    }

    /// After an update the walk passes over plain leaves without loading them (their entries
    /// are quiet). Whatever gives a leaf, or a node below it, a reason to be visited must wake
    /// it: a registration, an override, a dynamic color, a Swift subclass moved in, and all of
    /// it after the children's order changed under the quiet entries.
    @Test func quietChildrenAreWokenByWhateverMakesThemReact() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let leaves = try (0..<6).map { i in
            let leaf = View(name: "leaf\(i)")
            try top.addSubview(leaf)
            return leaf
        }
        let below = View(name: "below")
        try leaves[5].addSubview(below)
        let fillers = try (0..<4).map { i in
            let filler = View(name: "filler\(i)")
            try top.insertSubview(filler, at: 0)
            return filler
        }
        try stage.app.update()
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()  // the scan has now seen every leaf quiet
        #expect(top.traitChildren.allSatisfy { !$0.quiet.isEmpty })
        // Every quiet entry moves: three places towards the front (the last leaf's old place
        // is now past the end).
        for filler in fillers { filler.removeFromSuperview() }
        try top.insertSubview(View(name: "first"), at: 0)
        var log: [String] = []
        try leaves[0].registerForTraitChanges([MyAppThemeTrait.self]) { node, _ in log.append(node.name!) }
        leaves[1].traitOverrides[MyAppThemeTrait.self] = .pastel
        leaves[2].backgroundColor = Color { $0.myAppTheme == .pastel ? .black : .white }
        let subclass = LoggingView(name: "subclass")
        try leaves[3].addSubview(subclass)
        try below.registerForTraitChanges([MyAppThemeTrait.self]) { node, _ in log.append(node.name!) }
        try stage.app.update()
        #expect(leaves[1].traitCollection.myAppTheme == .pastel)
        log.removeAll()
        subclass.log.removeAll()
        top.traitOverrides[MyAppThemeTrait.self] = .pastel
        try top.updateTraitsIfNeeded()  // the trait walk alone: the display pass has not run
        #expect(log == ["leaf0", "below"])
        #expect(subclass.log == ["didChange"])
        #expect(leaves[2].flags.contains(.needsDisplay))
        #expect(leaves[4].traitCollection.myAppTheme == .pastel)
    }

    /// A node with a binding is quiet only while no script declares `traitCollectionDidChange`;
    /// once one does, the walk must reach it again, also through a node visited meanwhile for
    /// another reason (whose summary must still say a binding is below it). `BindingHints` is
    /// process-wide: when another test declared it first, this checks the plain path instead.
    @Test func aBindingDeclaredAfterTheTreeWentQuietStillHearsEveryChange() throws {
        final class Recorder: NodeBinding {
            var calls = 0
            func ownerDidChange(_ node: TraitEnvironment) {}
            func implements(_ event: NodeEvent) -> Bool { event == .traitCollectionDidChange }
            func invoke(_ event: NodeEvent, on node: TraitEnvironment, argument: AnyObject?) throws -> Bool {
                calls += 1
                return true
            }
        }
        let stage = Stage()
        let top = try stage.view("top")
        let watcher = View(name: "watcher")
        try top.addSubview(watcher)
        try watcher.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in }
        let leaf = View(name: "bound")
        try chain(under: watcher, count: 1).addSubview(leaf)
        let recorder = Recorder()
        leaf.binding = recorder
        try stage.app.update()
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()  // visits the watcher; what is below it is quiet unless bindings react
        BindingHints.declare(.traitCollectionDidChange)
        recorder.calls = 0
        top.overrideUserInterfaceStyle = .dark  // a trait the watcher does not watch
        try stage.app.update()
        #expect(recorder.calls == 1)
    }
}
