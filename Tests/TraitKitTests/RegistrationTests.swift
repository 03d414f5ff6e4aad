import Testing
@testable import TraitKit

@Suite("R7 change registration")
struct RegistrationTests {
    // WWDC23: closure registration on self and on another view, for several traits.
    @Test func closureRegistrationFiresTopDownWithPrevious() throws {
        let stage = Stage()
        let a = try stage.view("a")
        let b = try stage.view("b", in: a)
        try stage.app.update()
        var log: [String] = []
        try b.registerForTraitChanges([MyAppThemeTrait.self]) { node, previous in
            log.append("b:\(previous.myAppTheme)->\(node.traitCollection.myAppTheme)")
        }
        try a.registerForTraitChanges([SystemTraits.horizontalSizeClass, ContainedInSettingsTrait.trait, MyAppThemeTrait.trait]) { node, previous in
            log.append("a:\(previous.myAppTheme)->\(node.traitCollection.myAppTheme)")
            #expect(TraitCollection.current == node.traitCollection)
        }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(log == ["a:standard->pastel", "b:standard->pastel"])
    }

    @Test func noCallbackWhenTheValueEndsUpEqualOrForOtherTraits() throws {
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        var calls = 0
        try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in calls += 1 }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = nil
        try stage.app.update()
        stage.root.view.traitOverrides[TraitUserInterfaceStyle.self] = .dark
        try stage.app.update()
        #expect(calls == 0)
    }

    /// A registration for a set of traits fires for its members only; an empty set is refused.
    @Test func aRegistrationForATraitSetFiresForItsMembers() throws {
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        var calls = 0
        try b.registerForTraitChanges(TraitSet([MyAppThemeTrait.trait, SystemTraits.horizontalSizeClass])) { _, _ in calls += 1 }
        b.traitOverrides[ContainedInSettingsTrait.self] = true
        try stage.app.update()
        #expect(calls == 0)
        b.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(calls == 1)
        #expect(throws: TraitError.emptyTraitList) { try b.registerForTraitChanges(TraitSet()) { _, _ in } }
    }

    /// A binding's registration runs its runner with the id it registered, the node and the
    /// previous collection, in the same order as closures; unregistered, it runs no more.
    @Test func aRunnerRegistrationRunsItsEntryById() throws {
        final class Recorder: TraitChangeRunner {
            var log: [String] = []
            override func run(_ id: Int64, of node: TraitEnvironment, previous: TraitCollection) throws {
                log.append("\(id):\(node.name ?? "?"):\(previous.myAppTheme)->\(node.traitCollection.myAppTheme)")
            }
        }
        let stage = Stage()
        let a = try stage.view("a")
        let b = try stage.view("b", in: a)
        try stage.app.update()
        let recorder = Recorder()
        let theme = TraitSet([MyAppThemeTrait.trait])
        let token = try b.registerForTraitChanges(theme, runner: recorder, id: 7)
        try a.registerForTraitChanges(theme, runner: recorder, id: 3)
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(recorder.log == ["3:a:standard->pastel", "7:b:standard->pastel"])
        #expect(b.unregisterForTraitChanges(token))
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(recorder.log.suffix(1) == ["3:a:pastel->bold"])
        #expect(throws: TraitError.emptyTraitList) { try b.registerForTraitChanges(TraitSet(), runner: recorder, id: 1) }
    }

    @Test func oneCallPerUpdateWhenSeveralRegisteredTraitsChange() throws {
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        var calls = 0
        try b.registerForTraitChanges([MyAppThemeTrait.trait, ContainedInSettingsTrait.trait]) { _, _ in calls += 1 }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        stage.root.view.traitOverrides[ContainedInSettingsTrait.self] = true
        try stage.app.update()
        #expect(calls == 1)
    }

    // A handler that ends its own registration (the last owner of its closure) runs to its
    // end; one it ends among those still to fire does not fire; one it adds fires from the
    // next pass on. The Lua binding behaves the same (BindingTests).
    @Test func handlersThatChangeTheirNodesRegistrationsWhileFiring() throws {
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        var log: [String] = []
        var tokens: [TraitChangeRegistration] = []
        tokens.append(try b.registerForTraitChanges([MyAppThemeTrait.trait]) { node, _ in
            node.unregisterForTraitChanges(tokens[0])
            node.unregisterForTraitChanges(tokens[1])
            tokens.removeAll()
            _ = try node.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("added") }
            log.append("first, after ending itself")
        })
        tokens.append(try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("second") })
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(log == ["first, after ending itself"])
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(log == ["first, after ending itself", "added"])
    }

    /// A handler may end its own registration when nothing else holds it. The walk fires a
    /// node's first registration without retaining it, so the registration, and what its
    /// handler captured, lives on until the update ends; then both go.
    @Test func aRegistrationItsHandlerEndsLivesUntilTheUpdateEnds() throws {
        final class Captured {}
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        weak var token: TraitChangeRegistration?
        weak var weakCaptured: Captured?
        var aliveAfterEnding: [Bool] = []
        do {
            let captured = Captured()
            weakCaptured = captured
            token = try b.registerForTraitChanges([MyAppThemeTrait.trait]) { node, _ in
                _ = captured
                if let mine = token { node.unregisterForTraitChanges(mine) }
                aliveAfterEnding.append(token != nil)
            }
        }
        #expect(token != nil)
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(aliveAfterEnding == [true])
        #expect(token == nil)
        #expect(weakCaptured == nil)
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(aliveAfterEnding == [true])
    }

    /// The node keeps its first registration apart from the others (`NodeExtras`): ending it
    /// leaves the rest firing, in the order they were made.
    @Test func endingTheFirstRegistrationKeepsTheOthersInOrder() throws {
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        var log: [String] = []
        let first = try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("first") }
        try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("second") }
        try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("third") }
        b.unregisterForTraitChanges(first)
        try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("fourth") }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(log == ["second", "third", "fourth"])
    }

    /// What a node's registrations watch shrinks as they end, to the traits the remaining
    /// ones watch (the pass skips a node by it), however many there are and in any order.
    @Test func theWatchedTraitsAreWhatTheRemainingRegistrationsWatch() throws {
        let stage = Stage()
        let b = try stage.view("b")
        let theme = MyAppThemeTrait.trait, size = SystemTraits.horizontalSizeClass
        var tokens: [TraitChangeRegistration] = []
        for i in 0..<500 { tokens.append(try b.registerForTraitChanges(i == 250 ? [theme, size] : [theme]) { _, _ in }) }
        func watched() -> TraitSet { b.extras?.registeredTraits ?? TraitSet() }
        #expect(watched() == TraitSet([theme, size]))
        b.unregisterForTraitChanges(tokens[0])
        #expect(watched() == TraitSet([theme, size]))
        b.unregisterForTraitChanges(tokens[250])
        #expect(watched() == TraitSet([theme]))
        for token in tokens[1..<250].reversed() { b.unregisterForTraitChanges(token) }
        #expect(watched() == TraitSet([theme]))
        for token in tokens[251...] { b.unregisterForTraitChanges(token) }
        #expect(watched().isEmpty)
        var calls = 0
        try b.registerForTraitChanges([size]) { _, _ in calls += 1 }
        #expect(watched() == TraitSet([size]))
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(calls == 0)
    }

    /// The pass tells "nothing here cares" from masks folded to 64 bits, where traits 64 ids
    /// apart share a bit: a change of one must not reach what watches or read only the other.
    @Test func traitsSixtyFourIdsApartStayApart() throws {
        let watched = try TraitRegistry.define(name: "FoldWatched", kind: .integer, defaultValue: .integer(0))
        var other: TraitKit.Trait
        var n = 0
        repeat {
            other = try TraitRegistry.define(name: "FoldOther\(n)", kind: .integer, defaultValue: .integer(0))
            n += 1
        } while other.id % 64 != watched.id % 64
        final class ReadingView: View {
            var trait: TraitKit.Trait?
            var layouts = 0
            override func layoutSubviews() {
                layouts += 1
                if let trait { _ = traitCollection[trait] }
            }
        }
        let stage = Stage()
        let reader = ReadingView(name: "reader")
        reader.trait = watched
        try stage.root.view.addSubview(reader)
        var calls = 0
        try reader.registerForTraitChanges([watched]) { _, _ in calls += 1 }
        try stage.app.update()
        let layouts = reader.layouts
        try stage.root.view.traitOverrides.set(.integer(1), for: other)
        try stage.app.update()
        #expect(calls == 0)
        #expect(reader.layouts == layouts)
        try stage.root.view.traitOverrides.set(.integer(1), for: watched)
        try stage.app.update()
        #expect(calls == 1)
        #expect(reader.layouts == layouts + 1)
    }

    // WWDC23: unregistering with the token.
    @Test func unregisterByTokenTwiceIsSilent() throws {
        let stage = Stage()
        let b = try stage.view("b")
        try stage.app.update()
        var calls = 0
        let token = try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in calls += 1 }
        b.unregisterForTraitChanges(token)
        b.unregisterForTraitChanges(token)
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(calls == 0)
    }

    // WWDC23: target-action with a separate target, and the setNeedsLayout action on self.
    @Test func targetActionForms() throws {
        final class Controller {
            var seen: [String] = []
            func themeChanged(_ node: TraitEnvironment, _ previous: TraitCollection) {
                seen.append("\(node.name ?? ""):\(previous.myAppTheme)")
            }
        }
        let stage = Stage()
        let card = LoggingView(name: "card")
        try stage.root.view.addSubview(card)
        try stage.app.update()
        let controller = Controller()
        try card.registerForTraitChanges([MyAppThemeTrait.trait], target: controller, action: Controller.themeChanged)
        try card.registerForTraitChanges([SystemTraits.horizontalSizeClass], action: .setNeedsLayout)
        card.log.removeAll()
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        stage.root.view.traitOverrides[TraitHorizontalSizeClass.self] = .compact
        try stage.app.update()
        #expect(controller.seen == ["card:standard"])
        #expect(card.log.filter { $0.hasPrefix("layout") }.count == 1)
    }

    @Test func targetIsHeldWeakly() throws {
        final class Target { func act(_: TraitEnvironment, _: TraitCollection) {} }
        let stage = Stage()
        let b = try stage.view("b")
        weak var weakTarget: Target?
        do {
            let target = Target()
            weakTarget = target
            try b.registerForTraitChanges([MyAppThemeTrait.trait], target: target, action: Target.act)
        }
        #expect(weakTarget == nil)
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
    }

    // WWDC23: registering for systemTraitsAffectingColorAppearance, and the legacy
    // traitCollectionDidChange that compares previous values by hand.
    @Test func semanticSetAndLegacyCallback() throws {
        final class SizeAware: View {
            var updates: [UserInterfaceSizeClass] = []
            var anyChange = 0
            override func traitCollectionDidChange(_ previous: TraitCollection?) {
                anyChange += 1
                if traitCollection.horizontalSizeClass != previous?.horizontalSizeClass {
                    updates.append(traitCollection.horizontalSizeClass)
                }
            }
        }
        let stage = Stage()
        let view = SizeAware(name: "s")
        try stage.root.view.addSubview(view)
        try stage.app.update()
        var colorChanges = 0
        try view.registerForTraitChanges(SystemTraits.affectingColorAppearance) { _, _ in colorChanges += 1 }
        view.anyChange = 0
        stage.root.view.traitOverrides[TraitHorizontalSizeClass.self] = .regular
        try stage.app.update()
        #expect(colorChanges == 0)
        #expect(view.updates == [.regular])
        stage.root.view.overrideUserInterfaceStyle = .dark
        try stage.app.update()
        #expect(colorChanges == 1)
        #expect(view.anyChange == 2)
        #expect(view.updates == [.regular])
    }

    @Test func enteringAWindowComparesWithThePreviousCollection() throws {
        let stage = Stage()
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        let fresh = View(name: "fresh")
        var entered = 0
        try fresh.registerForTraitChanges([MyAppThemeTrait.trait]) { _, previous in
            #expect(previous.myAppTheme == .standard)
            entered += 1
        }
        try stage.root.view.addSubview(fresh)
        try stage.app.update()
        #expect(entered == 1)
    }

    @Test func emptyTraitListIsAnError() throws {
        let v = View()
        let none: [TraitKit.Trait] = []
        #expect(throws: TraitError.emptyTraitList) { try v.registerForTraitChanges(none) { _, _ in } }
    }

    @Test func handlerChangesBelowAreSeenInTheSamePass() throws {
        let stage = Stage()
        let a = try stage.view("a")
        let b = try stage.view("b", in: a)
        try stage.app.update()
        try a.registerForTraitChanges([MyAppThemeTrait.trait]) { node, _ in
            (node as! View).subviews.first?.traitOverrides[ContainedInSettingsTrait.self] = true
        }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        #expect(b.traitCollection.isContainedInSettings)
    }

    // A view a callback moves ahead of the walk had the old value, however its region's
    // slot already reads: its own callback still fires, with that old value as previous.
    @Test func aViewMovedAheadOfTheWalkStillGetsItsCallback() throws {
        let stage = Stage()
        let p = try stage.view("p")
        let c = try stage.view("c", in: p)
        let d = try stage.view("d")
        stage.window.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        var seen: [String] = []
        try d.registerForTraitChanges([MyAppThemeTrait.trait]) { node, previous in
            seen.append("\(previous.myAppTheme) -> \(node.traitCollection.myAppTheme)")
        }
        try p.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in try? c.addSubview(d) }
        stage.window.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(d.superview === c)
        #expect(seen == ["bold -> pastel"])
    }

    // A view the walk already visited, moved by its own callback under a view the walk has
    // yet to reach, is updated in the next pass: the later visit must not drop its flag.
    @Test func aVisitedViewMovedAheadIsUpdatedInTheNextPass() throws {
        let stage = Stage()
        let a = try stage.view("a"), x = try stage.view("x", in: a)
        let b = try stage.view("b"), y = try stage.view("y", in: b), z = try stage.view("z", in: y)
        try stage.app.update()
        y.traitOverrides[ContainedInSettingsTrait.self] = true
        z.traitOverrides[MyAppThemeTrait.self] = .bold  // work pending below y, flagged on y
        var moved = false
        try x.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in
            if !moved { moved = true; try? y.addSubview(x) }
        }
        var seen: [Bool] = []
        try x.registerForTraitChanges([ContainedInSettingsTrait.trait]) { node, _ in
            seen.append(node.traitCollection.isContainedInSettings)
        }
        stage.window.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(x.superview === y)
        #expect(x.traitCollection.isContainedInSettings)
        #expect(seen == [true])
    }

    // A subtree attached before an update joins its new parent's region in the walk; a
    // callback that then moves a view of it ahead of the walk must not leave the view's
    // old values behind: the slot owner below it (n, with an override) is updated too.
    @Test func aViewMovedAfterItsRegionJoinedKeepsWhatItHad() throws {
        let stage = Stage()
        stage.window.traitOverrides[MyAppThemeTrait.self] = .bold
        try stage.app.update()
        let d = View(name: "d"), m = View(name: "m"), n = View(name: "n")
        try d.addSubview(m)
        try m.addSubview(n)
        n.traitOverrides[ContainedInSettingsTrait.self] = true
        try d.updateTraitsIfNeeded()
        try stage.root.view.addSubview(d)
        var moved = false
        try d.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in
            if !moved { moved = true; try? d.addSubview(m) }
        }
        var seen: [MyAppTheme] = []
        try n.registerForTraitChanges([MyAppThemeTrait.trait]) { node, _ in seen.append(node.traitCollection.myAppTheme) }
        try stage.app.update()
        #expect(moved)
        #expect(n.traitCollection.myAppTheme == .bold)
        #expect(seen == [.bold])
    }

    // Layout runs after the pass's trait walk: a view moved there had the pass's new values
    // (the walk went past it, visit or not), and its next callback says so in `previous`.
    @Test func aViewMovedDuringLayoutHadThePassesValues() throws {
        final class Mover: View {
            var move: (() -> Void)?
            override func layoutSubviews() { move?(); move = nil }
        }
        let stage = Stage()
        let a = try stage.view("a"), x = try stage.view("x", in: a), b = try stage.view("b")
        let mover = Mover(name: "mover")
        try stage.root.view.addSubview(mover)
        b.traitOverrides[ContainedInSettingsTrait.self] = true
        try stage.app.update()
        var previousThemes: [MyAppTheme] = []
        try x.registerForTraitChanges([ContainedInSettingsTrait.trait]) { _, previous in previousThemes.append(previous.myAppTheme) }
        mover.move = { try? b.addSubview(x) }
        mover.setNeedsLayout()
        stage.window.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(x.traitCollection.isContainedInSettings && x.traitCollection.myAppTheme == .pastel)
        #expect(previousThemes == [.pastel])
    }

    // R7: a change that is not below the node whose callback runs waits for the next pass.
    // A view the walk went past (here without a visit: it watches another trait), moved
    // further on, is done for this pass, as in a walk that visits every node: d comes first.
    @Test func aViewTheWalkPassedWaitsForTheNextPassWhenMovedAhead() throws {
        let stage = Stage()
        let a = try stage.view("a"), x = try stage.view("x", in: a)
        let b = try stage.view("b"), c = try stage.view("c", in: b)
        let d = try stage.view("d")
        b.traitOverrides[ContainedInSettingsTrait.self] = true
        try stage.app.update()
        var log: [String] = []
        try x.registerForTraitChanges([ContainedInSettingsTrait.trait]) { _, _ in log.append("x") }
        try c.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in
            log.append("c")
            try? b.addSubview(x)
        }
        try d.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in log.append("d") }
        stage.window.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(log == ["c", "d", "x"])
        #expect(x.traitCollection.isContainedInSettings && x.traitCollection.myAppTheme == .pastel)
    }

    @Test func nonSettlingCycleStopsWithAnErrorNamingTheTrait() throws {
        struct Ping: TraitDefinition { static let defaultValue = 0 }
        let stage = Stage()
        let a = try stage.view("a")
        try stage.app.update()
        let rootView = stage.root.view
        try a.registerForTraitChanges([Ping.trait]) { node, _ in
            rootView.traitOverrides[Ping.self] = node.traitCollection[Ping.self] + 1
        }
        rootView.traitOverrides[Ping.self] = 1
        do {
            try stage.app.update()
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("Ping"))
        }
        // The engine keeps working.
        rootView.traitOverrides[Ping.self] = nil
        _ = try? stage.app.update()
    }

    // A handler for Ping sets Pong above, one for Pong sets Ping: each pass changes only one of
    // them, and the error must still name both.
    @Test func aCycleThroughTwoTraitsNamesBoth() throws {
        struct Ping: TraitDefinition { static let defaultValue = 0 }
        struct Pong: TraitDefinition { static let defaultValue = 0 }
        let stage = Stage()
        let a = try stage.view("a")
        let b = try stage.view("b")
        try stage.app.update()
        let rootView = stage.root.view
        try a.registerForTraitChanges([Ping.trait]) { node, _ in
            rootView.traitOverrides[Pong.self] = node.traitCollection[Ping.self] + 1
        }
        try b.registerForTraitChanges([Pong.trait]) { node, _ in
            rootView.traitOverrides[Ping.self] = node.traitCollection[Pong.self] + 1
        }
        rootView.traitOverrides[Ping.self] = 1
        do {
            try stage.app.update()
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "update did not settle after 100 iterations (traits still changing: Ping, Pong)")
        }
    }

    @Test func aFailingHandlerDoesNotStopTheUpdate() throws {
        struct Boom: Error {}
        let stage = Stage()
        let a = try stage.view("a")
        let b = try stage.view("b")
        try stage.app.update()
        var bCalled = false
        try a.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in throw Boom() }
        try b.registerForTraitChanges([MyAppThemeTrait.trait]) { _, _ in bCalled = true }
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .bold
        #expect(throws: Boom.self) { try stage.app.update() }
        #expect(bCalled)
        #expect(b.traitCollection.myAppTheme == .bold)
        try stage.app.update()
    }

    @Test func registrationsNeverKeepTheirNodeAlive() throws {
        weak var weakView: View?
        do {
            let v = View(name: "v")
            try v.registerForTraitChanges([MyAppThemeTrait.trait]) { node, _ in _ = node.name }
            weakView = v
        }
        #expect(weakView == nil)
    }
}
