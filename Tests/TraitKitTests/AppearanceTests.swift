import Testing
@testable import TraitKit

@Suite("R9 appearance")
struct AppearanceTests {
    let light = TraitCollection { $0.userInterfaceStyle = .light }
    let dark = TraitCollection { $0.userInterfaceStyle = .dark }

    @Test func staticColorsPrintAsRRGGBBAA() throws {
        #expect(Color(hex: "#FFD1DC")?.description == "#FFD1DCFF")
        #expect(Color(hex: "0F08")?.description == "#00FF0088")
        #expect(Color(hex: "#12") == nil)
        #expect(Color(hex: "ff8000")?.description == "#FF8000FF")
        #expect(Color(hex: "#abcd")?.description == "#AABBCCDD")
        // Only hexadecimal digits: no sign (an integer parser takes one), no second '#', no
        // character outside ASCII, nothing past eight digits.
        for bad in ["#+FFFFFFF", "-FFF", "##FFF", "#FFÉ", "#FFFFFFFFF", "#", "", "#FF FF FF"] {
            #expect(Color(hex: bad) == nil, "\(bad)")
        }
        #expect(Color(red: 1, green: 0.5, blue: 0, alpha: 0.5).description == "#FF800080")
        #expect(Color(red: 2, green: -1, blue: 0).description == "#FF0000FF")
    }

    @Test func staticColorsAreEqualByComponentsDynamicOnesByIdentity() throws {
        #expect(Color(hex: "#FFF") == Color.white)
        #expect(Color(hex: "#FF8000") != Color(red: 1, green: 0.5, blue: 0), "128/255 is not 0.5")
        #expect(try Color.systemBackground.resolvedColor(with: dark) == .black)
        let dynamic = Color { _ in .black }
        #expect(dynamic == dynamic)
        #expect(dynamic != Color { _ in .black })
        #expect(dynamic != .black)
    }

    @Test func withAlphaComponentKeepsDynamicColorsDynamic() throws {
        #expect(Color(hex: "#336699")!.withAlphaComponent(0.5).description == "#33669980")
        let half = Color.systemBlue.withAlphaComponent(0.25)
        #expect(half.isDynamic)
        #expect(try half.resolvedColor(with: dark).description == "#0A84FF40")
        #expect(try half.resolvedColor(with: light).description == "#007AFF40")
    }

    /// Each call replaces the alpha, so a chain of them is one wrapper deep: a 100,000-long
    /// chain used to overflow the stack when it was resolved or freed.
    @Test func alphaOnAnAlphaColorReplacesItWithoutNesting() throws {
        weak var first: Color?
        do {
            var color = Color.systemBlue.withAlphaComponent(0.25)
            first = color
            for _ in 0..<100_000 { color = color.withAlphaComponent(0.5) }
            #expect(try color.resolvedColor(with: dark).description == "#0A84FF80")
            #expect(try color.withAlphaComponent(1).resolvedColor(with: light).description == "#007AFFFF")
        }
        #expect(first == nil, "the chain's colors are freed, not kept by the last one")
    }

    @Test func systemColorsResolvePerAppearance() throws {
        #expect(try Color.systemBackground.resolvedColor(with: light).description == "#FFFFFFFF")
        #expect(try Color.systemBackground.resolvedColor(with: dark).description == "#000000FF")
        let darkElevated = dark.modifyingTraits { $0.userInterfaceLevel = .elevated }
        #expect(try Color.systemBackground.resolvedColor(with: darkElevated).description == "#1C1C1EFF")
        #expect(try Color.secondarySystemBackground.resolvedColor(with: darkElevated).description == "#2C2C2EFF")
        let highContrast = light.modifyingTraits { $0.accessibilityContrast = .high }
        #expect(try Color.systemBlue.resolvedColor(with: highContrast).description == "#0040DDFF")
        #expect(try Color.systemBlue.resolvedColor(with: dark).description == "#0A84FFFF")
        #expect(try Color.label.resolvedColor(with: dark).description == "#FFFFFFFF")
        #expect(try Color.secondaryLabel.resolvedColor(with: light).description == "#3C3C4399")
        #expect(Color.systemColors.count >= 12)
        // In every appearance each dynamic system color answers a value of its own (a
        // malformed constant would answer clear), the same object each time; a color without
        // values for the elevated level or high contrast answers its plain dark value there.
        let appearances = [light, dark, darkElevated].flatMap { [$0, $0.modifyingTraits { $0.accessibilityContrast = .high }] }
        for (name, color) in Color.systemColors where color.isDynamic {
            for tc in appearances {
                let resolved = try color.resolvedColor(with: tc), again = try color.resolvedColor(with: tc)
                #expect(resolved != .clear && resolved === again, "\(name) in \(tc)")
            }
        }
        let darkElevatedHigh = darkElevated.modifyingTraits { $0.accessibilityContrast = .high }
        #expect(try Color.label.resolvedColor(with: darkElevatedHigh).description == "#FFFFFFFF")
        #expect(try Color.systemBackground.resolvedColor(with: darkElevatedHigh).description == "#242426FF")
    }

    // The three ways the dark-mode notes give to resolve for a consumer that does not know
    // dynamic colors.
    @Test func resolvedColorWith() throws {
        let color = Color { $0.userInterfaceStyle == .dark ? .black : .white }
        #expect(try color.resolvedColor(with: dark).description == "#000000FF")
    }

    @Test func performAsCurrentResolves() throws {
        let color = Color { $0.userInterfaceStyle == .dark ? .black : .white }
        let resolved = try dark.performAsCurrent { try color.resolvedColor() }
        #expect(resolved.description == "#000000FF")
    }

    @Test func savingSettingAndRestoringCurrent() throws {
        let color = Color { $0.userInterfaceStyle == .dark ? .black : .white }
        let saved = TraitCollection.current
        TraitCollection.current = dark
        let resolved = try color.resolvedColor()
        TraitCollection.current = saved
        #expect(resolved.description == "#000000FF")
        #expect(TraitCollection.current === saved)
    }

    /// A provider that answers dynamic colors forever is an error, not a dynamic color handed
    /// back as if resolved; a chain that ends in a static color resolves.
    @Test func aProviderThatNeverEndsInAStaticColorIsAnError() throws {
        nonisolated(unsafe) var endless: Color!
        endless = Color { _ in endless }
        #expect(throws: TraitError.colorDidNotResolve(depth: 16)) { try endless.resolvedColor(with: dark) }
        let chained = Color { _ in Color { _ in Color { $0.userInterfaceStyle == .dark ? .black : .white } } }
        #expect(try chained.resolvedColor(with: dark).description == "#000000FF")
    }

    @Test func customTraitColor() throws {
        let color = Color { $0.myAppTheme == .pastel ? Color(hex: "#FFD1DC")! : .white }
        #expect(try color.resolvedColor(with: TraitCollection { $0.myAppTheme = .pastel }).description == "#FFD1DCFF")
    }

    @Test func dynamicColorRedrawsOnColorAppearanceTraitsOnly() throws {
        struct Density: TraitDefinition { static let defaultValue = 0 }
        let stage = Stage()
        let swatch = LoggingView(name: "swatch")
        swatch.backgroundColor = Color { _ in .white }
        try stage.root.view.addSubview(swatch)
        try stage.app.update()
        swatch.log.removeAll()
        stage.root.view.traitOverrides[Density.self] = 2
        try stage.app.update()
        #expect(!swatch.log.contains("draw"))
        stage.root.view.traitOverrides[MyAppThemeTrait.self] = .pastel
        try stage.app.update()
        #expect(swatch.log.filter { $0 == "draw" }.count == 1)
        stage.screen.setSystemTraits { $0.userInterfaceStyle = .dark }
        try stage.app.update()
        #expect(swatch.log.filter { $0 == "draw" }.count == 2)
    }

    @Test func staticColorDoesNotRedraw() throws {
        let stage = Stage()
        let swatch = LoggingView(name: "swatch")
        swatch.backgroundColor = .white
        try stage.root.view.addSubview(swatch)
        try stage.app.update()
        swatch.log.removeAll()
        stage.screen.setSystemTraits { $0.userInterfaceStyle = .dark }
        try stage.app.update()
        #expect(!swatch.log.contains("draw"))
    }

    @Test func imageAssetMatching() {
        let asset = ImageAsset()
        asset.register("any", for: TraitCollection())
        asset.register("dark", for: dark)
        asset.register("dark-compact", for: dark.modifyingTraits { $0.horizontalSizeClass = .compact })
        #expect(asset.image(for: TraitCollection()) == "any")
        #expect(asset.image(for: dark) == "dark")
        #expect(asset.image(for: dark.modifyingTraits { $0.horizontalSizeClass = .compact; $0.displayScale = 3 }) == "dark-compact")
        #expect(asset.image(for: light.modifyingTraits { $0.horizontalSizeClass = .compact }) == "any")
        asset.register("dark-2", for: dark)
        #expect(asset.image(for: dark) == "dark-2")
        let only = ImageAsset()
        only.register("x", for: dark)
        #expect(only.image(for: light) == nil)
    }

    @Test func tiesGoToTheLatestRegistered() {
        let asset = ImageAsset()
        asset.register("compact", for: TraitCollection { $0.horizontalSizeClass = .compact })
        asset.register("dark", for: dark)
        #expect(asset.image(for: dark.modifyingTraits { $0.horizontalSizeClass = .compact }) == "dark")
    }

    @Test func reRegisteringEqualTraitsReplacesAndBecomesTheLatest() {
        let asset = ImageAsset()
        asset.register("compact", for: TraitCollection { $0.horizontalSizeClass = .compact })
        asset.register("dark", for: dark)
        // Equal traits built another way (a default set explicitly is still unspecified).
        asset.register("compact-2", for: TraitCollection { $0.horizontalSizeClass = .compact; $0.userInterfaceStyle = .unspecified })
        let both = dark.modifyingTraits { $0.horizontalSizeClass = .compact }
        #expect(asset.image(for: both) == "compact-2")
        #expect(asset.image(for: TraitCollection { $0.horizontalSizeClass = .compact }) == "compact-2")
        asset.register("dark-2", for: dark)
        #expect(asset.image(for: both) == "dark-2")
    }
}
