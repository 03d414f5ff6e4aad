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
    /// The `userInterfaceIdiom` trait.
    public static let userInterfaceIdiom = t(0)
    /// The `userInterfaceStyle` trait.
    public static let userInterfaceStyle = t(1)
    /// The `layoutDirection` trait.
    public static let layoutDirection = t(2)
    /// The `displayScale` trait.
    public static let displayScale = t(3)
    /// The `horizontalSizeClass` trait.
    public static let horizontalSizeClass = t(4)
    /// The `verticalSizeClass` trait.
    public static let verticalSizeClass = t(5)
    /// The `forceTouchCapability` trait.
    public static let forceTouchCapability = t(6)
    /// The `preferredContentSizeCategory` trait.
    public static let preferredContentSizeCategory = t(7)
    /// The `displayGamut` trait.
    public static let displayGamut = t(8)
    /// The `accessibilityContrast` trait.
    public static let accessibilityContrast = t(9)
    /// The `userInterfaceLevel` trait.
    public static let userInterfaceLevel = t(10)
    /// The `legibilityWeight` trait.
    public static let legibilityWeight = t(11)
    /// The `activeAppearance` trait.
    public static let activeAppearance = t(12)
    /// The `toolbarItemPresentationSize` trait.
    public static let toolbarItemPresentationSize = t(13)
    /// The `imageDynamicRange` trait.
    public static let imageDynamicRange = t(14)
    /// The `typesettingLanguage` trait.
    public static let typesettingLanguage = t(15)
    /// The `sceneCaptureState` trait.
    public static let sceneCaptureState = t(16)
    /// The `listEnvironment` trait.
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
