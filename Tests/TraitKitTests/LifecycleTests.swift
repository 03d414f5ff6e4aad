import Testing
@testable import TraitKit

@Suite("R8 lifecycle, layout, automatic trait tracking")
struct LifecycleTests {
    final class Settings: ViewController {
        var log: [String] = []
        override func viewDidLoad() { log.append("viewDidLoad") }
        override func viewWillAppear() { log.append("viewWillAppear:\(traitCollection.myAppTheme)") }
        override func viewIsAppearing() { log.append("viewIsAppearing:\(traitCollection.myAppTheme)") }
        override func viewWillLayoutSubviews() { log.append("viewWillLayoutSubviews:\(TraitCollection.current.myAppTheme)") }
        override func viewDidLayoutSubviews() { log.append("viewDidLayoutSubviews") }
        override func viewDidAppear() { log.append("viewDidAppear") }
        override func viewWillDisappear() { log.append("viewWillDisappear") }
        override func viewDidDisappear() { log.append("viewDidDisappear") }
    }

    @Test func appearanceOrderStaleThenFreshTraits() throws {
        let stage = Stage()
        let middle = try stage.view("middle")
        middle.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        let s = Settings(name: "settings")
        #expect(!s.isViewLoaded)
        try stage.root.addChild(s)
        try middle.addSubview(s.view)
        try stage.app.update()
        #expect(s.log == ["viewDidLoad", "viewWillAppear:standard", "viewIsAppearing:pastel",
                          "viewWillLayoutSubviews:pastel", "viewDidLayoutSubviews", "viewDidAppear"])
        s.log.removeAll()
        s.view.removeFromSuperview()
        try stage.app.update()
        #expect(s.log == ["viewWillDisappear", "viewDidDisappear"])
    }

    /// A controller's view inside a plain container: placing or removing the container,
    /// which is no controller itself, still makes the controller appear and disappear.
    @Test func aControllerInsideAMovedContainerAppearsAndDisappears() throws {
        let stage = Stage()
        let container = View(name: "container")
        let s = Settings(name: "settings")
        try stage.root.addChild(s)
        try container.addSubview(s.view)
        try stage.app.update()
        #expect(!s.log.contains("viewDidAppear"))
        s.log.removeAll()
        try stage.root.view.addSubview(container)
        try stage.app.update()
        #expect(s.log.first == "viewWillAppear:standard" && s.log.last == "viewDidAppear")
        s.log.removeAll()
        container.removeFromSuperview()
        try stage.app.update()
        #expect(s.log == ["viewWillDisappear", "viewDidDisappear"])
    }

    @Test func layoutSeesUpdatedTraitsAndTracksReads() throws {
        let stage = Stage()
        let middle = try stage.view("middle")
        middle.traitOverrides[MyAppThemeTrait.self] = .pastel
        let card = LoggingView(name: "card")
        try middle.addSubview(card)
        try stage.app.update()
        #expect(card.log.contains("layout:pastel"))
        card.log.removeAll()
        middle.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(card.log.contains("layout:bold"))
        card.log.removeAll()
        middle.traitOverrides[TraitHorizontalSizeClass.self] = .compact
        try stage.app.update()
        #expect(!card.log.contains { $0.hasPrefix("layout") })
    }

    /// A tree just built flags every node for the three passes; the plain nodes' flags are
    /// cleared in one walk (LayoutPass.clearInert) and the passes still reach the nodes that
    /// run something, deep among plain ones, once each and in pass order: every view's
    /// constraints, then layout with the controller's callbacks around it, then draw.
    @Test func passesReachCallbacksDeepAmongPlainViews() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let deep = try chain(under: top, count: 20)
        let card = LoggingView(name: "card")
        try deep.addSubview(card)
        let settings = Settings(name: "settings")
        try stage.root.addChild(settings)
        try chain(under: top, count: 5).addSubview(settings.view)
        try chain(under: settings.view, count: 5).addSubview(View(name: "leaf"))
        try stage.app.update()
        #expect(card.log.filter { $0 != "didChange" } == ["layout:standard", "draw"])
        #expect(Array(settings.log.suffix(3)) == ["viewWillLayoutSubviews:standard", "viewDidLayoutSubviews", "viewDidAppear"])
        let passFlags: NodeFlags = [.needsUpdateConstraints, .subtreeNeedsUpdateConstraints, .needsLayout,
                                    .subtreeNeedsLayout, .needsDisplay, .subtreeNeedsDisplay]
        var flagged: [String] = []
        func collect(_ node: TraitEnvironment) {
            if !node.flags.isDisjoint(with: passFlags) { flagged.append(node.debugName) }
            node.traitChildNodes.forEach(collect)
        }
        collect(stage.screen)
        #expect(flagged.isEmpty, "\(flagged)")
        card.log.removeAll()
        settings.log.removeAll()
        try stage.app.update()
        #expect(card.log.isEmpty && settings.log.isEmpty)
        deep.setNeedsLayout()
        card.setNeedsDisplay()
        try stage.app.update()
        #expect(card.log == ["draw"])
    }

    /// The passes go down only where a node below asks for them: among many siblings just the
    /// ones that asked run, and a subview a `layoutSubviews` adds is laid out, drawn and has
    /// its constraints updated in the same update.
    @Test func passesReachWhatAskedAmongManySiblings() throws {
        final class Adder: View {
            var added: LoggingView?
            override func layoutSubviews() {
                guard added == nil else { return }
                let view = LoggingView(name: "added")
                added = view
                try? addSubview(view)
            }
        }
        let stage = Stage()
        let list = try stage.view("list")
        let cards = (0..<60).map { LoggingView(name: "card\($0)") }
        for card in cards { try list.addSubview(card) }
        try stage.app.update()
        for card in cards { card.log.removeAll() }
        cards[10].setNeedsLayout()
        cards[40].setNeedsDisplay()
        try stage.app.update()
        let ran = cards.enumerated().filter { !$0.element.log.isEmpty }.map { "\($0.offset): \($0.element.log)" }
        #expect(ran == ["10: [\"layout:standard\"]", "40: [\"draw\"]"])
        for card in cards { card.log.removeAll() }
        let adder = Adder(name: "adder")
        try list.insertSubview(adder, at: 30)
        try stage.app.update()
        #expect(adder.added?.log.filter { $0 != "didChange" } == ["layout:standard", "draw"])
        #expect(cards.allSatisfy { $0.log.isEmpty })
    }

    /// A view whose `updateConstraints` adds a sibling that does the same kept one pass going
    /// for ever (the walk followed each child appended meanwhile), out of reach of the update's
    /// limit on passes. Children a callback adds wait for the next pass: `layoutIfNeeded` runs
    /// one, and `update()` ends after its limit, naming who still asks.
    @Test func aPassDoesNotFollowChildrenItsCallbacksKeepAdding() throws {
        final class Spawner: View {
            nonisolated(unsafe) static var made = 0
            override func updateConstraints() {
                // Bounded, so that a pass that follows every new child fails the test instead of hanging it.
                guard Spawner.made < 10_000 else { return }
                Spawner.made += 1
                try? superview?.addSubview(Spawner(name: "spawn\(Spawner.made)"))
            }
        }
        let stage = Stage()
        let box = try stage.view("box")
        try box.addSubview(Spawner(name: "first"))
        try stage.root.view.layoutIfNeeded()
        #expect(box.subviewCount == 2, "one pass: the first view's sibling waits")
        #expect {
            try stage.app.update()
        } throws: { error in
            guard case TraitError.updateDidNotSettle(_, _, let constraints, _, _, _) = error else { return false }
            return constraints.first?.hasPrefix("Spawner 'spawn") == true
        }
        #expect(box.subviewCount <= 2 + Application.maxIterations + 1, "\(box.subviewCount)")
    }

    @Test func drawRunsOnSetNeedsDisplay() throws {
        let stage = Stage()
        let card = LoggingView(name: "card")
        try stage.root.view.addSubview(card)
        try stage.app.update()
        card.log.removeAll()
        card.setNeedsDisplay()
        try stage.app.update()
        #expect(card.log == ["draw"])
    }

    @Test func asyncWorkRunsAfterThePasses() throws {
        let stage = Stage()
        let card = LoggingView(name: "card")
        try stage.root.view.addSubview(card)
        stage.app.async { card.log.append("async") }
        try stage.app.update()
        #expect(card.log.last == "async")
    }

    final class Restless: View {
        override func layoutSubviews() { setNeedsLayout() }
        override func draw() { setNeedsDisplay() }
    }

    /// A run loop that never settles names what kept it going, not an empty list of traits.
    @Test func aNonSettlingUpdateNamesWhatKeptAsking() throws {
        let stage = Stage()
        let busy = Restless(name: "busy")
        try stage.root.view.addSubview(busy)
        busy.setNeedsDisplay()
        #expect(throws: TraitError.updateDidNotSettle(traits: [], layout: ["Restless 'busy'"], display: ["Restless 'busy'"])) {
            try stage.app.update()
        }
        busy.removeFromSuperview()
        try stage.app.update()
        let app = stage.app
        func again() { app.async(again) }
        app.async(again)
        #expect(throws: TraitError.updateDidNotSettle(traits: [], async: true)) { try stage.app.update() }
    }

    final class Multiplying: ViewController {
        override func viewIsAppearing() {
            let child = Multiplying(name: "child")
            try? addChild(child)
            try? view.addSubview(child.view)
        }
    }

    /// A controller whose viewIsAppearing adds another in every pass: the error names the
    /// nodes the last pass met for the first time, not the screen's traits, which each new node
    /// only takes (it said "traits still changing: userInterfaceIdiom").
    @Test func aNonSettlingUpdateNamesTheNodesItKeepsAdding() throws {
        let stage = Stage()
        let first = Multiplying(name: "first")
        try stage.root.addChild(first)
        try stage.root.view.addSubview(first.view)
        #expect {
            try stage.app.update()
        } throws: { error in
            guard case TraitError.updateDidNotSettle(let traits, let added, _, _, _, _) = error else { return false }
            return traits.isEmpty && added.contains("Multiplying 'child'")
                && "\(error)".contains("nodes new in the last pass: ")
        }
    }
}
