/// The system traits of R2, in R2's order (which is their id order and printing order).
struct SystemTraitSpec {
    let name: String
    let kind: TraitKind
    let defaultValue: TraitValue
    let affectsColorAppearance: Bool

    static func enumTrait<E: TraitEnum>(_ name: String, _ type: E.Type, color: Bool = false) -> SystemTraitSpec {
        SystemTraitSpec(name: name, kind: E.traitKind, defaultValue: .enumCase(0), affectsColorAppearance: color)
    }

    static let all: [SystemTraitSpec] = [
        enumTrait("userInterfaceIdiom", UserInterfaceIdiom.self, color: true),
        enumTrait("userInterfaceStyle", UserInterfaceStyle.self, color: true),
        enumTrait("layoutDirection", LayoutDirection.self),
        SystemTraitSpec(name: "displayScale", kind: .number, defaultValue: .number(0), affectsColorAppearance: false),
        enumTrait("horizontalSizeClass", UserInterfaceSizeClass.self),
        enumTrait("verticalSizeClass", UserInterfaceSizeClass.self),
        enumTrait("forceTouchCapability", ForceTouchCapability.self),
        enumTrait("preferredContentSizeCategory", ContentSizeCategory.self),
        enumTrait("displayGamut", DisplayGamut.self, color: true),
        enumTrait("accessibilityContrast", AccessibilityContrast.self, color: true),
        enumTrait("userInterfaceLevel", UserInterfaceLevel.self, color: true),
        enumTrait("legibilityWeight", LegibilityWeight.self),
        enumTrait("activeAppearance", UserInterfaceActiveAppearance.self, color: true),
        enumTrait("toolbarItemPresentationSize", ToolbarItemPresentationSize.self),
        enumTrait("imageDynamicRange", ImageDynamicRange.self),
        SystemTraitSpec(name: "typesettingLanguage", kind: .string(optional: true), defaultValue: .none,
                        affectsColorAppearance: false),
        enumTrait("sceneCaptureState", SceneCaptureState.self),
        enumTrait("listEnvironment", ListEnvironment.self, color: true),
    ]
}

/// Handles to the system traits, for untyped use (`tc[SystemTraits.horizontalSizeClass]`).
public enum SystemTraits {
    private static func t(_ i: Int) -> Trait { TraitRegistry.trait(id: i) }
    public static let userInterfaceIdiom = t(0)
    public static let userInterfaceStyle = t(1)
    public static let layoutDirection = t(2)
    public static let displayScale = t(3)
    public static let horizontalSizeClass = t(4)
    public static let verticalSizeClass = t(5)
    public static let forceTouchCapability = t(6)
    public static let preferredContentSizeCategory = t(7)
    public static let displayGamut = t(8)
    public static let accessibilityContrast = t(9)
    public static let userInterfaceLevel = t(10)
    public static let legibilityWeight = t(11)
    public static let activeAppearance = t(12)
    public static let toolbarItemPresentationSize = t(13)
    public static let imageDynamicRange = t(14)
    public static let typesettingLanguage = t(15)
    public static let sceneCaptureState = t(16)
    public static let listEnvironment = t(17)

    /// Every system trait, in R2 order.
    public static let all: [Trait] = (0..<SystemTraitSpec.all.count).map(t)

    /// `systemTraitsAffectingColorAppearance` (listEnvironment is not in it, as in UIKit).
    public static let affectingColorAppearance: [Trait] = [
        userInterfaceIdiom, userInterfaceStyle, displayGamut, accessibilityContrast, userInterfaceLevel,
        activeAppearance,
    ]

    /// `systemTraitsAffectingImageLookup`.
    public static let affectingImageLookup: [Trait] = [
        userInterfaceIdiom, userInterfaceStyle, layoutDirection, displayScale, horizontalSizeClass,
        verticalSizeClass, preferredContentSizeCategory, displayGamut, accessibilityContrast, legibilityWeight,
    ]
}
