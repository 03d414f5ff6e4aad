import Testing
@testable import TraitKit

/// The system enums list their cases' names (`caseNames`) instead of finding them by
/// reflection; these tests keep the lists true to the cases.
@Suite("R2 system trait enums")
struct SystemTraitEnumsTests {
    /// The names reflection gives, which is what a `TraitEnum` that lists none uses.
    private func reflected<E: TraitEnum>(_ type: E.Type) -> [String] {
        E.allCases.map { String(describing: $0) }
    }

    @Test func everyListMatchesItsCases() {
        #expect(UserInterfaceIdiom.caseNames == reflected(UserInterfaceIdiom.self))
        #expect(UserInterfaceStyle.caseNames == reflected(UserInterfaceStyle.self))
        #expect(LayoutDirection.caseNames == reflected(LayoutDirection.self))
        #expect(UserInterfaceSizeClass.caseNames == reflected(UserInterfaceSizeClass.self))
        #expect(ForceTouchCapability.caseNames == reflected(ForceTouchCapability.self))
        #expect(ContentSizeCategory.caseNames == reflected(ContentSizeCategory.self))
        #expect(DisplayGamut.caseNames == reflected(DisplayGamut.self))
        #expect(AccessibilityContrast.caseNames == reflected(AccessibilityContrast.self))
        #expect(UserInterfaceLevel.caseNames == reflected(UserInterfaceLevel.self))
        #expect(LegibilityWeight.caseNames == reflected(LegibilityWeight.self))
        #expect(UserInterfaceActiveAppearance.caseNames == reflected(UserInterfaceActiveAppearance.self))
        #expect(ToolbarItemPresentationSize.caseNames == reflected(ToolbarItemPresentationSize.self))
        #expect(ImageDynamicRange.caseNames == reflected(ImageDynamicRange.self))
        #expect(SceneCaptureState.caseNames == reflected(SceneCaptureState.self))
        #expect(ListEnvironment.caseNames == reflected(ListEnvironment.self))
    }

    @Test func everyEnumTraitTakesItsEnumsNames() {
        // Each system trait whose values are an enum's is checked against that enum's names,
        // so an enum missing from the test above would still be caught here by its trait.
        let enums: [String: [String]] = [
            "userInterfaceIdiom": reflected(UserInterfaceIdiom.self), "userInterfaceStyle": reflected(UserInterfaceStyle.self),
            "layoutDirection": reflected(LayoutDirection.self), "horizontalSizeClass": reflected(UserInterfaceSizeClass.self),
            "verticalSizeClass": reflected(UserInterfaceSizeClass.self), "forceTouchCapability": reflected(ForceTouchCapability.self),
            "preferredContentSizeCategory": reflected(ContentSizeCategory.self), "displayGamut": reflected(DisplayGamut.self),
            "accessibilityContrast": reflected(AccessibilityContrast.self), "userInterfaceLevel": reflected(UserInterfaceLevel.self),
            "legibilityWeight": reflected(LegibilityWeight.self), "activeAppearance": reflected(UserInterfaceActiveAppearance.self),
            "toolbarItemPresentationSize": reflected(ToolbarItemPresentationSize.self),
            "imageDynamicRange": reflected(ImageDynamicRange.self), "sceneCaptureState": reflected(SceneCaptureState.self),
            "listEnvironment": reflected(ListEnvironment.self),
        ]
        for trait in SystemTraits.all {
            guard case .enumeration(let names) = trait.kind else { continue }
            #expect(names == enums[trait.name], "\(trait.name)")
        }
        #expect(SystemTraits.all.filter { if case .enumeration = $0.kind { true } else { false } }.count == enums.count)
    }

    @Test func anEnumThatListsNoNamesUsesItsCases() {
        enum Tone: Int, TraitEnum { case warm, cool }
        #expect(Tone.caseNames == ["warm", "cool"])
        #expect(Tone.traitKind == .enumeration(["warm", "cool"]))
    }
}
