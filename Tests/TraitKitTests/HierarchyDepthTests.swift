import Foundation
import Testing
@testable import TraitKit

/// Every pass over the tree recurses once per level, so the engine refuses to build a tree
/// deeper than `HierarchyDepth.limit` instead of overflowing the stack (HierarchyDepth.swift),
/// and refuses an update nested in callbacks once the stack runs short (StackRoom.swift).
@Suite("Hierarchy depth and nested updates")
struct HierarchyDepthTests {
    @Test func aTreeAtTheLimitWorksInEveryPassAndOneMoreLevelIsRefused() throws {
        let stage = Stage()
        // screen, scene, window, root controller, root view: the root view is level 5.
        let leaf = try chain(under: stage.root.view, count: HierarchyDepth.limit - 5)
        #expect(leaf.level == HierarchyDepth.limit)
        var fired = 0
        try leaf.registerForTraitChanges([MyAppThemeTrait.self]) { _, _ in fired += 1 }
        stage.window.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(fired == 1)
        #expect(leaf.traitCollection.myAppTheme == .bold)
        #expect(leaf.explain(MyAppThemeTrait.self).contains("window"))
        #expect(stage.window.dump().contains("plain\(HierarchyDepth.limit - 6)"))
        #expect(stage.window.treeDescription().contains("plain\(HierarchyDepth.limit - 6)"))

        let extra = View(name: "extra")
        #expect(throws: TraitError.tooDeep(node: "View 'extra'", parent: leaf.debugName, limit: HierarchyDepth.limit)) {
            try leaf.addSubview(extra)
        }
        #expect(extra.superview == nil && leaf.subviews.isEmpty)
        #expect(extra.traitParentNode == nil)
    }

    @Test func aDeepSubtreeIsRefusedWholeAndKeptAsItWas() throws {
        let stage = Stage()
        let top = View(name: "top")
        let bottom = try chain(under: top, count: HierarchyDepth.limit - 1)
        #expect(bottom.level == HierarchyDepth.limit)
        #expect(throws: TraitError.tooDeep(node: "View 'top'", parent: stage.root.view.debugName, limit: HierarchyDepth.limit)) {
            try stage.root.view.addSubview(top)
        }
        #expect(top.superview == nil && stage.root.view.subviews.isEmpty)
        #expect(bottom.level == HierarchyDepth.limit)

        // A controller takes the place of its view: a deep view is refused there too.
        let controller = ViewController(name: "deep")
        #expect(throws: TraitError.self) { try controller.setView(top) }
        #expect(controller.viewIfLoaded == nil && top.viewController == nil)

        // And a controller whose view is deep cannot be presented over the window (a
        // presented controller sits two levels below it, under its presentation controller).
        let presented = ViewController(name: "sheet")
        try presented.setView(View(name: "sheetView"))
        _ = try chain(under: presented.view, count: HierarchyDepth.limit - 5)
        #expect(throws: TraitError.tooDeep(node: "ViewController 'sheet'", parent: "ViewController 'root'",
                                           limit: HierarchyDepth.limit)) {
            try stage.root.present(presented)
        }
        #expect(stage.root.presentedViewController == nil && presented.presentingViewController == nil)
        #expect(presented.window == nil)
    }

    /// The deepest branch counts wherever it is among its siblings, and a removed sibling
    /// (an emptied place) neither ends the count nor adds to it.
    @Test func aSubtreeIsMeasuredByItsDeepestBranch() throws {
        let stage = Stage()
        let top = View(name: "top")
        let removed = View(name: "removed")
        try top.addSubview(View(name: "shallow"))
        try top.addSubview(removed)
        let middle = View(name: "middle")
        try top.addSubview(middle)
        try top.addSubview(View(name: "last"))
        removed.removeFromSuperview()
        // The window's root view is at level 5: `middle` goes at 7, its chain below it.
        _ = try chain(under: middle, count: HierarchyDepth.limit - 6)
        #expect(throws: TraitError.self) { try stage.root.view.addSubview(top) }
        #expect(top.superview == nil)
        let bottom = try #require(middle.subviews.first)
        bottom.removeFromSuperview()
        _ = try chain(under: middle, count: HierarchyDepth.limit - 7)
        try stage.root.view.addSubview(top)
        #expect(top.superview === stage.root.view)
    }

    @Test func freeingAChainAtTheLimitDoesNotOverflowTheStack() throws {
        weak var deepest: View?
        do {
            let top = View(name: "top")
            deepest = try chain(under: top, count: HierarchyDepth.limit - 1)
            #expect(deepest != nil)
        }
        #expect(deepest == nil)
    }

    /// Containment and presentation chains hold their controllers strongly and are freed and
    /// dismissed one level at a time: a 100,000-deep containment chain crashed when freed.
    @Test func controllerChainsStopAtTheLimitAndFreeWithoutOverflow() throws {
        weak var deepest: ViewController?
        do {
            let top = ViewController(name: "top")
            var current = top
            for i in 1..<HierarchyDepth.limit {
                let next = ViewController(name: "c\(i)")
                try current.addChild(next)
                current = next
            }
            deepest = current
            let extra = ViewController(name: "extra")
            #expect(throws: TraitError.tooDeep(node: "ViewController 'extra'", parent: current.debugName,
                                               limit: HierarchyDepth.limit)) {
                try current.addChild(extra)
            }
            #expect(extra.parent == nil && current.children.isEmpty)
            // A chain built apart is refused whole when it would go too deep.
            let other = ViewController(name: "other")
            try other.addChild(ViewController(name: "otherChild"))
            let aboveDeepest = try #require(current.parent)
            #expect(throws: TraitError.self) { try aboveDeepest.addChild(other) }
            #expect(other.parent == nil && other.children.count == 1)
            try top.addChild(ViewController(name: "shallow"))
        }
        #expect(deepest == nil)

        let stage = Stage()
        var presenter = stage.root
        for i in 1..<HierarchyDepth.limit {
            let next = ViewController(name: "sheet\(i)")
            try presenter.present(next)
            presenter = next
        }
        #expect(throws: TraitError.invalidHierarchy(
            "cannot present ViewController 'last' from \(presenter.debugName): presentations nest at most \(HierarchyDepth.limit) deep")) {
            try presenter.present(ViewController(name: "last"))
        }
        try stage.app.update()
        stage.root.dismiss()
        #expect(stage.root.presentedViewController == nil && presenter.window == nil)
    }

    /// On a thread with a small stack the room kept is half of it: nested updates still run
    /// a few levels deep, and are refused before the stack runs out.
    @Test func nestedUpdatesOnASmallStackStopBeforeItRunsOut() async throws {
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            let thread = Foundation.Thread {
                var outcome = "no error"
                if let probe = try? NestingForever(chainLength: 50) {
                    try? probe.start()
                    if case .nestedTooDeeply(let updates) = probe.refused {
                        outcome = "refused after \(updates)"
                    } else {
                        outcome = "not refused: \(String(describing: probe.refused))"
                    }
                }
                done.resume(returning: outcome)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        #expect(outcome.hasPrefix("refused after "), "\(outcome)")
        #expect(outcome != "refused after 1", "half of a 1 MB stack leaves room for some nesting")
    }

    @Test func updatesNestedInCallbacksStopWithAnErrorBeforeTheStackRunsOut() throws {
        let probe = try NestingForever(chainLength: 200)
        #expect(throws: TraitError.self) { try probe.start() }
        guard case .nestedTooDeeply(let updates) = probe.refused else {
            Issue.record("expected nestedTooDeeply, got \(String(describing: probe.refused))")
            return
        }
        // Refused well before the stack ran out, and only then.
        #expect(updates > 4 && updates == probe.nested)
        #expect(probe.refused?.description.hasPrefix("updates nested too deeply") == true)
        // The hierarchy is still usable: the next update settles and reaches the leaf.
        probe.stage.window.traitOverrides[MyAppThemeTrait.self] = .monochrome
        try probe.stage.app.update()
        #expect(probe.leaf.traitCollection.myAppTheme == .monochrome)
    }
}

/// A stage with a chain of views whose leaf's handler changes a trait again and asks for the
/// change at once (`layoutIfNeeded`), forever, until a nested update is refused.
private final class NestingForever {
    let stage = Stage()
    let leaf: View
    /// How many times the handler ran before the refusal.
    private(set) var nested = 0
    /// The error that refused a nested update.
    private(set) var refused: TraitError?

    init(chainLength: Int) throws {
        leaf = try chain(under: stage.root.view, count: chainLength)
        try leaf.registerForTraitChanges([MyAppThemeTrait.self]) { [unowned self] _, _ in
            guard refused == nil else { return }
            nested += 1
            stage.window.traitOverrides[MyAppThemeTrait.self] = nested % 2 == 0 ? .bold : .pastel
            do { try stage.window.layoutIfNeeded() } catch let error as TraitError {
                refused = error
                throw error
            }
        }
    }

    /// Sets the trait on the window and runs the update that starts the nesting.
    func start() throws {
        stage.window.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
    }
}
