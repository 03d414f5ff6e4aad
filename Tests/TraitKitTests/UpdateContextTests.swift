import Testing
@testable import TraitKit

/// The trait walk visits nodes without reference counting (UpdateContext.swift) and writes
/// collections into slots shared by regions (TraitRegions.swift). These check what that must
/// never break: collections are freed once no node holds them and never before; callbacks
/// that free nodes or replace an ancestor's collection mid-walk leave every other node
/// updated, with the right previous collections.
@Suite("Update context: the walk without reference counting")
struct UpdateContextTests {
    /// A tree under the root view: `fanOut` containers, each with `leaves` plain leaves.
    private func grid(_ stage: Stage, fanOut: Int, leaves: Int) throws -> [View] {
        var all: [View] = []
        for i in 0..<fanOut {
            let container = try stage.view("c\(i)")
            all.append(container)
            for j in 0..<leaves { all.append(try stage.view("c\(i).\(j)", in: container)) }
        }
        return all
    }

    @Test func collectionsAreFreedOnceNoNodeHoldsThemAndNotBefore() throws {
        let stage = Stage()
        let views = try grid(stage, fanOut: 5, leaves: 20)
        try stage.app.update()
        var previous: [Weak<TraitCollection>] = []
        for round in 0..<20 {
            // (Before the first override, the window and controller share the views' collection.)
            if round > 0 { previous.append(Weak(views.last!.traitCollection)) }
            stage.root.view.traitOverrides[MyAppThemeTrait.self] = round % 2 == 0 ? .pastel : .bold
            try stage.app.update()
            // Every view still reads its (live) collection.
            for view in views { #expect(view.traitCollection.myAppTheme == (round % 2 == 0 ? .pastel : .bold)) }
        }
        // Each earlier collection was shared by the root view and the 105 views; all moved on.
        #expect(previous.allSatisfy { $0.value == nil })
        let current = Weak(views.last!.traitCollection)
        #expect(current.value != nil)
    }

    @Test func aHandlerThatFreesItsAncestorsLeavesTheRestUpdated() throws {
        let stage = Stage()
        var doomed: View? = try stage.view("doomed")
        let weakDoomed = Weak(doomed!)
        let inner = try stage.view("inner", in: doomed)
        for j in 0..<10 { _ = try stage.view("leaf\(j)", in: inner) }
        let watcher = try stage.view("watcher", in: inner)
        let later = try grid(stage, fanOut: 3, leaves: 10)
        try stage.app.update()
        var fired = 0
        try watcher.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in
            fired += 1
            // Frees `doomed`, `inner` and their leaves while the walk is inside them.
            doomed?.removeFromSuperview()
            doomed = nil
        }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(fired == 1)
        #expect(weakDoomed.value == nil)
        for view in later { #expect(view.traitCollection.myAppTheme == .pastel) }
    }

    /// The walk pins a node when a callback below it runs; if the callback removed it, it is
    /// freed with its subtree as the walk leaves it, and the walk goes on with the rest. The
    /// collection the region had before is freed once the update ends (the slot keeps it only
    /// while the update runs).
    @Test func aNodeFreedByACallbackBelowItWhileItsLeavesArePending() throws {
        // Detached, so no appearance transition keeps the removed view until the pass ends.
        let top = View(name: "top")
        var doomed: View? = View(name: "doomed")
        try top.addSubview(doomed!)
        let weakDoomed = Weak(doomed!)
        var watcher: View? = View(name: "watcher")  // a container, kept by this test
        try doomed!.addSubview(watcher!)
        for j in 0..<5 { try watcher!.addSubview(View(name: "w\(j)")) }
        // Held only by `doomed`; visited after the callback, freed as the walk leaves `doomed`.
        var weakLeaves: [Weak<View>] = []
        for j in 0..<50 {
            let leaf = View(name: "leaf\(j)")
            try doomed!.addSubview(leaf)
            weakLeaves.append(Weak(leaf))
        }
        let sibling = View(name: "sibling")
        try top.addSubview(sibling)
        try top.updateTraitsIfNeeded()
        var fired = 0
        try watcher!.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in
            fired += 1
            doomed?.removeFromSuperview()
            doomed = nil
        }
        top.traitOverrides[MyAppThemeTrait.self] = .bold
        try top.updateTraitsIfNeeded()
        #expect(fired == 1)
        #expect(weakDoomed.value == nil)
        #expect(weakLeaves.allSatisfy { $0.value == nil })
        #expect(sibling.traitCollection.myAppTheme == .bold)
        let bold = Weak(top.traitCollection)
        top.traitOverrides[MyAppThemeTrait.self] = .pastel
        try top.updateTraitsIfNeeded()
        #expect(sibling.traitCollection.myAppTheme == .pastel)
        // The removed watcher keeps the collection it had; nothing else does.
        #expect(bold.value === watcher!.traitCollection)
        watcher = nil
        #expect(bold.value == nil)
    }

    @Test func aHandlerThatReplacesAnAncestorsCollectionMidWalk() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let first = try stage.view("first", in: top)
        let siblings = (0..<20).map { _ in View() }
        for sibling in siblings { try top.addSubview(sibling) }
        try stage.app.update()
        try first.registerForTraitChanges([MyAppThemeTrait.self]) { node, _ in
            // Replaces `top`'s collection (the one the walk hands to `siblings`) right now.
            top.traitOverrides[ContainedInSettingsTrait.self] = true
            try node.updateTraitsIfNeeded()
        }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        for view in [first] + siblings {
            #expect(view.traitCollection.myAppTheme == .bold)
            #expect(view.traitCollection.isContainedInSettings)
        }
    }

    /// What siblings hear when the handler of the child before them (`first`) sets an override
    /// on their parent and brings the parent up to date at once, inside the running walk of a
    /// theme change at the root: `watch` registers each sibling, writing into the log.
    private func siblingsOfAParentUpdatedAhead(count: Int, watch: (View, CallLog) throws -> Void)
        throws -> (siblings: [View], calls: [String])
    {
        let stage = Stage()
        let parent = try stage.view("parent")
        let first = try stage.view("first", in: parent)
        let siblings = try (0..<count).map { try stage.view("s\($0)", in: parent) }
        try stage.app.update()
        let log = CallLog()
        for sibling in siblings { try watch(sibling, log) }
        try first.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in
            parent.traitOverrides[ContainedInSettingsTrait.self] = true
            try parent.updateTraitsIfNeeded()  // walks the siblings now, inside the running walk
        }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        return (siblings, log.calls)
    }

    @Test func aHandlerThatUpdatesItsParentNowDoesNotFireTheSiblingsTwice() throws {
        let (siblings, calls) = try siblingsOfAParentUpdatedAhead(count: 10) { sibling, log in
            try sibling.registerForTraitChanges([MyAppThemeTrait.self, ContainedInSettingsTrait.self]) { node, previous in
                log.calls.append("\(node.name!):\(previous.myAppTheme)->\(node.traitCollection.myAppTheme)")
            }
        }
        #expect(calls == siblings.map { "\($0.name!):standard->pastel" })
        for sibling in siblings {
            #expect(sibling.traitCollection.myAppTheme == .pastel && sibling.traitCollection.isContainedInSettings)
        }
    }

    /// As above, with each sibling watching the two traits in two registrations: the early
    /// update of their parent reaches them for the trait it changes, and the registration on
    /// the trait the running walk changed still fires, once.
    @Test func aHandlerThatUpdatesItsParentNowStillTellsTheSiblingsWhatTheyMissed() throws {
        let (siblings, calls) = try siblingsOfAParentUpdatedAhead(count: 3) { sibling, log in
            try sibling.registerForTraitChanges([MyAppThemeTrait.self]) { node, previous in
                log.calls.append("\(node.name!):\(previous.myAppTheme)->\(node.traitCollection.myAppTheme)")
            }
            try sibling.registerForTraitChanges([ContainedInSettingsTrait.self]) { node, _ in
                log.calls.append("\(node.name!):contained")
            }
        }
        #expect(calls == siblings.flatMap { ["\($0.name!):standard->pastel", "\($0.name!):contained"] })
    }

    @Test func deepTreesGrowThePath() throws {
        let stage = Stage()
        var parent = stage.root.view
        var chain: [View] = []
        for i in 0..<300 {
            let view = View(name: "d\(i)")
            try parent.addSubview(view)
            chain.append(view)
            parent = view
        }
        var fired = 0
        try chain.last!.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in fired += 1 }
        try stage.app.update()
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .monochrome
        try stage.app.update()
        #expect(fired == 1)
        #expect(chain.allSatisfy { $0.traitCollection.myAppTheme == .monochrome })
    }
}

/// A weak reference, to see whether something else still holds an object.
struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

/// Where test handlers write what they saw (a class, so escaping handlers can share it).
final class CallLog {
    var calls: [String] = []
}
