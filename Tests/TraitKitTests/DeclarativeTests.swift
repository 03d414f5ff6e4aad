import Testing
@testable import TraitKit

@Suite("R10 declarative layer, bridging, Introspect")
struct DeclarativeTests {
    let themeKey = EnvironmentKey(name: "theme", bridge: MyAppThemeTrait.trait)
    let accentKey = EnvironmentKey(name: "accent", defaultValue: .string("blue"))

    /// A cell that reads `key` and records what it saw.
    final class Probe {
        var evaluations = 0
        var seen: [TraitValue] = []
    }

    func cell(reading key: EnvironmentKey, into probe: Probe) -> Element {
        Element(.custom(name: "CellView") { env in
            probe.evaluations += 1
            probe.seen.append(try env[key])
            return Element(.primitive(.Text, attributes: ["text": .string("Settings")], children: []))
        })
    }

    // WWDC23: a window-scene trait override read through a bridged key in a hosted cell.
    @Test func bridgedKeyReadsTheHostsTraitsAndTracksDependencies() throws {
        let stage = Stage()
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .monochrome
        let probe = Probe()
        let host = HostingController(root: cell(reading: themeKey, into: probe))
        try stage.root.view.addSubview(host.view)
        try stage.root.addChild(host)
        try stage.app.update()
        #expect(probe.seen.last == MyAppTheme.monochrome.traitValue)
        let before = probe.evaluations
        stage.scene.traitOverrides[TraitHorizontalSizeClass.self] = .compact
        try stage.app.update()
        #expect(probe.evaluations == before, "a key it did not read changed")
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(probe.evaluations == before + 1)
        #expect(probe.seen.last == MyAppTheme.pastel.traitValue)
        #expect(host.view.firstView(ofClass: "CellView")?.firstView(ofClass: "Label") != nil)
    }

    /// Modifiers nest elements without adding views, so the hierarchy's depth check never sees
    /// them: an element tree deeper than the limit is refused at render, leaving the host empty.
    /// A hosting controller can go while its view stays (a superview keeps it, the controller
    /// was a child of a controller that went): the view no longer points at it, and still
    /// re-renders on a change.
    @Test func aHostingViewOutlivesItsController() throws {
        let stage = Stage()
        let probe = Probe()
        weak var gone: HostingController?
        let hostView: HostingView = try {
            let owner = ViewController(name: "owner")
            let host = HostingController(root: cell(reading: themeKey, into: probe))
            try owner.addChild(host)
            try stage.root.view.addSubview(host.view)
            gone = host
            return try #require(host.hostingView)
        }()
        try stage.app.update()
        #expect(gone == nil, "the controller went with its parent")
        #expect(hostView.hostingController == nil)
        let before = probe.evaluations
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(probe.evaluations == before + 1)
        #expect(probe.seen.last == MyAppTheme.pastel.traitValue)
    }

    @Test func anElementTreeDeeperThanTheLimitIsRefusedAtRender() throws {
        var element = Element(.primitive(.Text, attributes: ["text": .string("leaf")], children: []))
        for i in 1..<HierarchyDepth.limit { element = element.environment(accentKey, .string("c\(i)")) }
        #expect(element.depth == HierarchyDepth.limit)
        let stage = Stage()
        let fits = HostingController(root: element)
        try stage.root.view.addSubview(fits.view)
        try stage.app.update()
        #expect(fits.view.subviews.count == 1)

        let deeper = element.environment(accentKey, .string("one more"))
        let host = HostingController(root: deeper)
        try stage.root.view.addSubview(host.view)
        #expect(throws: TraitError.invalidHierarchy(
            "cannot render an element tree \(HierarchyDepth.limit + 1) levels deep in HostingView (at most \(HierarchyDepth.limit))")) {
            try stage.app.update()
        }
        #expect(host.view.subviews.isEmpty)
    }

    @Test func modifierSetsAPlainKeyAndDefaultsApply() throws {
        let stage = Stage()
        let withValue = Probe(), withDefault = Probe()
        let root = Element(.primitive(.VStack, attributes: [:], children: [
            cell(reading: accentKey, into: withValue).environment(accentKey, .string("red")),
            cell(reading: accentKey, into: withDefault),
        ]))
        stage.window.rootViewController = HostingController(root: root)
        try stage.app.update()
        #expect(withValue.seen.last == .string("red"))
        #expect(withDefault.seen.last == .string("blue"))
    }

    // WWDC23: an environment value written into a representable's controller traits.
    @Test func explicitBridgedValueReachesTheRepresentablesTraits() throws {
        final class SettingsController: ViewController {
            var themes: [MyAppTheme] = []
            override func viewWillLayoutSubviews() { themes.append(traitCollection.myAppTheme) }
        }
        let stage = Stage()
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .monochrome
        var made: SettingsController?
        let representable = Element(.viewControllerRepresentable {
            let controller = SettingsController(name: "settings")
            made = controller
            return controller
        })
        let host = HostingController(root: representable.environment(themeKey, MyAppTheme.standard.traitValue))
        stage.window.rootViewController = host
        try stage.app.update()
        let settings = try #require(made)
        #expect(settings.parent === host)
        #expect(settings.themes.last == .standard)
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(settings.traitCollection.myAppTheme == .standard)
    }

    @Test func builtInKeysUseSwiftUINames() throws {
        let dark = TraitCollection { $0.userInterfaceStyle = .dark; $0.preferredContentSizeCategory = .extraLarge }
        let values = EnvironmentValues(traits: dark)
        #expect(try values[.colorScheme] == .string("dark"))
        #expect(try values[.dynamicTypeSize] == .string("xLarge"))
        #expect(try values[.horizontalSizeClass] == TraitValue.none)
        #expect(try values[.displayScale] == .number(1))
        #expect(EnvironmentKey.builtIn.count == 8)
    }

    /// Built-in keys take SwiftUI's names and refuse others where the value is set; what they
    /// take reaches a representable's traits (an integer scale as a number, nil as unspecified).
    @Test func builtInKeysCheckTheirValuesAndWriteThem() throws {
        #expect(throws: TraitError.invalidEnvironmentValue(key: "colorScheme", value: "\"purple\"",
                                                          expected: "one of: light, dark")) {
            try EnvironmentKey.colorScheme.validate(.string("purple"))
        }
        #expect(throws: TraitError.self) { try EnvironmentKey.displayScale.validate(.integer(0)) }
        #expect(throws: TraitError.self) { try EnvironmentKey.colorScheme.validate(.none) }
        try EnvironmentKey.horizontalSizeClass.validate(.none)
        try accentKey.validate(.integer(5))
        var traits = MutableTraits(TraitCollection())
        try EnvironmentKey.displayScale.write?(&traits, .integer(2))
        try EnvironmentKey.horizontalSizeClass.write?(&traits, .none)
        try EnvironmentKey.dynamicTypeSize.write?(&traits, .string("large"))
        try EnvironmentKey.colorScheme.write?(&traits, .string("light"))
        let written = TraitCollection(traits)
        #expect(written.displayScale == 2)
        #expect(written.horizontalSizeClass == .unspecified)
        #expect(written.preferredContentSizeCategory == .large, "the name that also reads for unspecified")
        #expect(written.userInterfaceStyle == .light)
    }

    /// A bridged key whose read fails fails the body that reads it, with the reason.
    @Test func aFailingReadFailsTheBody() throws {
        struct Unreadable: Error {}
        let key = EnvironmentKey(name: "unreadable", defaultValue: .integer(1), read: { _ in throw Unreadable() })
        let stage = Stage()
        let probe = Probe()
        let host = HostingController(root: cell(reading: key, into: probe))
        try stage.root.view.addSubview(host.view)
        try stage.root.addChild(host)
        #expect(throws: Unreadable.self) { try stage.app.update() }
        #expect(probe.seen.isEmpty)
    }

    @Test func introspectFindsTheBackingViewOnTheNextTurn() throws {
        let stage = Stage()
        var found: [TraitEnvironment] = []
        let root = Element(.primitive(.VStack, attributes: [:], children: [
            Element(.primitive(.ScrollView, attributes: [:], children: [
                Element(.primitive(.Text, attributes: ["text": .string("row")], children: [])),
            ])).introspect("ScrollView") { view in
                found.append(view)
                (view as? ScrollView)?.bounces = false
            },
        ]))
        stage.window.rootViewController = HostingController(root: root)
        try stage.app.update()
        #expect(found.count == 1)
        let scroll = try #require(found.first as? ScrollView)
        #expect(scroll.bounces == false)
        #expect(scroll.superview?.isKind(ofClassNamed: "StackView") == true)
        try stage.app.update()
        #expect(found.count == 1, "customized once")
    }

    @Test func introspectFindsNothingWhenNoSiblingHasTheClass() throws {
        let stage = Stage()
        var calls = 0
        let root = Element(.primitive(.Text, attributes: [:], children: [])).introspect("ScrollView") { _ in calls += 1 }
        stage.window.rootViewController = HostingController(root: root)
        try stage.app.update()
        #expect(calls == 0)
    }

    @Test func introspectCallsNothingOnceTheElementLeft() throws {
        let stage = Stage()
        var calls = 0
        let root = Element(.primitive(.ScrollView, attributes: [:], children: [])).introspect("ScrollView") { _ in calls += 1 }
        let host = HostingController(root: root)
        stage.window.rootViewController = host
        // Entering the window queues the customization; leaving before it runs cancels it.
        try host.view.updateTraitsIfNeeded()
        try host.view.layoutIfNeeded()
        host.view.removeFromSuperview()
        try stage.app.update()
        #expect(calls == 0)
    }

    // Introspect of a view controller: the sheet's hosting controller made modal.
    @Test func introspectFindsTheEnclosingController() throws {
        let stage = Stage()
        let content = Element(.primitive(.Text, attributes: [:], children: [])).introspect("HostingController") { controller in
            (controller as? ViewController)?.isModalInPresentation = true
        }
        let sheet = HostingController(root: content)
        try stage.root.present(sheet)
        try stage.app.update()
        #expect(sheet.isModalInPresentation)
    }

    @Test func hostingConfigurationRendersInACell() throws {
        let stage = Stage()
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .bold
        let probe = Probe()
        let cellView = try stage.view("cell")
        try HostingConfiguration(root: cell(reading: themeKey, into: probe)).apply(to: cellView)
        try stage.app.update()
        #expect(probe.seen.last == MyAppTheme.bold.traitValue)
    }

    /// A representable whose controllers are counted, for the containment tests below.
    func representable(made: @escaping (ViewController) -> Void) -> Element {
        Element(.viewControllerRepresentable {
            let controller = ViewController(name: "represented")
            made(controller)
            return controller
        })
    }

    // A body evaluated again drops its old views; their representables' controllers go too.
    @Test func reRenderedRepresentablesLeaveTheHostController() throws {
        let stage = Stage()
        var made: [ViewController] = []
        let rep = representable { made.append($0) }
        let host = HostingController(root: Element(.custom(name: "Styled") { env in
            _ = try env[EnvironmentKey.colorScheme]
            return rep
        }))
        stage.window.rootViewController = host
        try stage.app.update()
        for style in [UserInterfaceStyle.dark, .light, .dark] {
            stage.window.overrideUserInterfaceStyle = style
            try stage.app.update()
        }
        #expect(made.count == 4)
        #expect(host.children.count == 1)
        #expect(host.children.first === made.last)
        #expect(made.dropLast().allSatisfy { $0.parent == nil && $0.view.superview == nil })
    }

    // SwiftUI's `rootView =`: the new tree replaces the old one, views and controllers.
    @Test func settingTheRootReplacesTheRenderedTree() throws {
        let stage = Stage()
        var made: [ViewController] = []
        let host = HostingController(root: Element(.primitive(.VStack, attributes: [:], children: [
            representable { made.append($0) },
            Element(.primitive(.Text, attributes: ["text": .string("old")], children: [])),
        ])))
        try host.setRoot(host.root)  // before the view loads: nothing rendered, nothing to remove
        stage.window.rootViewController = host
        try stage.app.update()
        #expect(host.children.count == 1)
        let probe = Probe()
        try host.setRoot(cell(reading: themeKey, into: probe))
        #expect(probe.evaluations == 1, "a rendered host renders the new tree at once")
        #expect(host.children.isEmpty)
        #expect(made.first?.parent == nil)
        #expect(host.view.subviews.map(\.className) == ["CellView"])
        stage.scene.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(probe.seen.last == MyAppTheme.pastel.traitValue, "the new tree tracks its reads")
    }

    // A failing body leaves the host empty, and a new root renders again.
    @Test func aFailedRenderLeavesNothingAndANewRootRenders() throws {
        struct BodyFailed: Error {}
        let stage = Stage()
        var made: [ViewController] = []
        let host = HostingController(root: Element(.primitive(.VStack, attributes: [:], children: [
            representable { made.append($0) },
            Element(.custom(name: "Bad") { _ in throw BodyFailed() }),
        ])))
        stage.window.rootViewController = host
        #expect(throws: BodyFailed.self) { try stage.app.update() }
        #expect(host.view.subviews.isEmpty)
        #expect(host.children.isEmpty && made.count == 1 && made[0].parent == nil)
        try host.setRoot(Element(.primitive(.Text, attributes: ["text": .string("fixed")], children: [])))
        #expect((host.view.subviews.first as? Label)?.text == "fixed")
    }

    @Test func bodyErrorsReachTheUpdatesCaller() throws {
        struct BodyFailed: Error {}
        let stage = Stage()
        stage.window.rootViewController = HostingController(root: Element(.custom(name: "Bad") { _ in throw BodyFailed() }))
        #expect(throws: BodyFailed.self) { try stage.app.update() }
        try stage.app.update()
    }
}

@Suite("R10 hierarchy queries")
struct HierarchyQueryTests {
    @Test func findChildPreviousSiblingAncestor() throws {
        let stage = Stage()
        let stack = try stage.view("stack")
        let scroll = ScrollView(name: "scroll")
        try stack.addSubview(scroll)
        let inner = try stage.view("inner", in: scroll)
        let marker = try stage.view("marker", in: stack)
        #expect(stage.root.view.findChild(ofClass: "ScrollView") === scroll)
        #expect(marker.previousSibling(containing: "ScrollView") === scroll)
        #expect(scroll.previousSibling(containing: "ScrollView") == nil)
        #expect(inner.ancestor(ofClass: "Window") === stage.window)
        #expect(inner.ancestor(ofClass: "ViewController") === stage.root)
        #expect(inner.ancestor(ofClass: "TableView") == nil)
    }
}
