import Testing
@testable import TraitKit

/// Nodes without overrides share their parent's slot, and the walk enters only the subtrees
/// whose summary says a node there reacts (TraitRegions.swift). These check that what a user
/// sees does not depend on which nodes the walk skipped.
@Suite("Trait regions: shared slots and subtree summaries")
struct TraitRegionsTests {
    /// `depth` plain views in a chain under `top`; returns the deepest.
    private func chain(under top: View, depth: Int) throws -> View {
        var node = top
        for i in 0..<depth {
            let next = View(name: "plain\(i)")
            try node.addSubview(next)
            node = next
        }
        return node
    }

    @Test func aRegionSharesOneCollectionAndSplitsWhereAnOverrideIs() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let middle = try chain(under: top, depth: 5)
        let leaf = try chain(under: middle, depth: 5)
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

    @Test func deepNodesThatReactToEveryChangeAreStillReached() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let deep = try chain(under: top, depth: 8)
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
        let early = try chain(under: top, depth: 3)
        let late = try chain(under: top, depth: 3)
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
        let moving = try chain(under: left, depth: 2)
        let below = try chain(under: moving, depth: 3)
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
        let leaf = try chain(under: chain(under: top!, depth: 3), depth: 1)
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
        let deep = try chain(under: top, depth: 4)
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
}
