import Testing
@testable import TraitKit

/// Each update records what its walk touches and the next one that walks the same way
/// prefetches it (WalkTrace.swift). Only speed depends on it, so these check that it follows
/// the walks it should, lets go of the ones it cannot, and never changes what an update does.
/// A thread's trace carries over from whatever ran on it before, so each test first updates
/// its own tree a few times.
@Suite("Walk trace: the next walk prefetches what the last one touched")
struct WalkTraceTests {
    /// Containers of ten views under the root view; a registration for the theme on every
    /// fifth view and one for `ContainedInSettings` on every seventh, each counting its calls.
    private final class Tree {
        let stage = Stage()
        var views: [View] = []
        var themeCalls = 0, settingsCalls = 0

        init(containers: Int) throws {
            for c in 0..<containers {
                let container = try stage.view("c\(c)")
                views.append(container)
                for i in 0..<10 { views.append(try stage.view("c\(c).\(i)", in: container)) }
            }
            for (i, view) in views.enumerated() { try register(view, index: i) }
            try stage.app.update()
        }

        func register(_ view: View, index: Int) throws {
            if index % 5 == 0 {
                try view.registerForTraitChanges([MyAppThemeTrait.trait]) { [unowned self] _, _ in themeCalls += 1 }
            }
            if index % 7 == 0 {
                try view.registerForTraitChanges([ContainedInSettingsTrait.trait]) { [unowned self] _, _ in settingsCalls += 1 }
            }
        }

        private var bold = false, inSettings = false

        /// Flips the theme at the root and updates.
        func flipTheme() throws {
            bold.toggle()
            stage.root.view.traitOverrides[MyAppThemeTrait.self] = bold ? .bold : .pastel
            try stage.app.update()
        }

        func flipSettings() throws {
            inSettings.toggle()
            stage.root.view.traitOverrides[ContainedInSettingsTrait.self] = inSettings
            try stage.app.update()
        }
    }

    @Test func aRepeatedUpdateFollowsTheWalkBeforeItAllTheWay() throws {
        let tree = try Tree(containers: 50)
        for _ in 0..<3 { try tree.flipTheme() }
        let walk = WalkTrace.lastUpdate
        // At least each registered view and its registration.
        #expect(walk.touches > 2 * 110)
        #expect(walk.followed == walk.touches)
    }

    @Test func updatesAlternatingBetweenTwoChangesEachFollowTheirOwn() throws {
        let tree = try Tree(containers: 50)
        var walks: [(touches: Int, followed: Int)] = []
        for _ in 0..<3 {
            try tree.flipTheme()
            walks.append(WalkTrace.lastUpdate)
            try tree.flipSettings()
            walks.append(WalkTrace.lastUpdate)
        }
        // The two kinds of walk differ (the settings change reaches fewer registrations) ...
        #expect(walks[4].touches != walks[5].touches)
        // ... and from the second round on each follows the one recorded two updates before.
        for walk in walks.suffix(4) { #expect(walk.followed == walk.touches) }
    }

    @Test func aWalkThatStraysFindsItsPlaceAgain() throws {
        let tree = try Tree(containers: 50)
        for _ in 0..<3 { try tree.flipTheme() }
        // A new registered view in the middle of the walk: its touches are new ground.
        let added = try tree.stage.view("added", in: tree.views[25 * 11])
        try tree.register(added, index: 0)
        try tree.flipTheme()
        let walk = WalkTrace.lastUpdate
        // Only the new view's own touches (the view, its extras, its registration) are not
        // found; the walk picks up again right after them.
        #expect(walk.followed < walk.touches)
        #expect(walk.followed >= walk.touches - 20)
    }

    @Test func aWalkOverFreedNodesUpdatesEveryNodeAsWithout() throws {
        let tree = try Tree(containers: 50)
        for _ in 0..<3 { try tree.flipTheme() }
        // The recorded walk now names freed objects; the new views may reuse their memory.
        for container in tree.stage.root.view.subviews { container.removeFromSuperview() }
        tree.views.removeAll()
        for c in 0..<50 {
            let container = try tree.stage.view("n\(c)")
            tree.views.append(container)
            for i in 0..<10 { tree.views.append(try tree.stage.view("n\(c).\(i)", in: container)) }
        }
        for (i, view) in tree.views.enumerated() { try tree.register(view, index: i) }
        try tree.stage.app.update()
        tree.themeCalls = 0
        try tree.flipTheme()
        #expect(tree.themeCalls == 110)
        #expect(tree.views.allSatisfy { $0.traitCollection.myAppTheme == tree.stage.root.view.traitCollection.myAppTheme })
    }

    @Test func switchedOffAWalkRecordsNothingAndUpdatesTheSame() throws {
        let tree = try Tree(containers: 20)
        WalkTrace.isEnabled = false
        defer { WalkTrace.isEnabled = true }
        tree.themeCalls = 0
        for _ in 0..<2 { try tree.flipTheme() }
        #expect(WalkTrace.lastUpdate.touches == 0)
        #expect(tree.themeCalls == 2 * 44)
        WalkTrace.isEnabled = true
        for _ in 0..<3 { try tree.flipTheme() }
        #expect(WalkTrace.lastUpdate.followed == WalkTrace.lastUpdate.touches)
        #expect(WalkTrace.lastUpdate.touches > 0)
    }
}
