/// Typed properties for the system traits, as UIKit has them on `UITraitCollection` and
/// `UIMutableTraits` (`tc.horizontalSizeClass`, `traits.userInterfaceStyle = .dark`).

extension TraitCollection {
    /// The `userInterfaceIdiom` trait's value (UIKit's `UITraitCollection.userInterfaceIdiom`).
    public var userInterfaceIdiom: UserInterfaceIdiom { UserInterfaceIdiom(traitValue: self[SystemTraits.userInterfaceIdiom]) ?? .unspecifiedCase }
    /// The `userInterfaceStyle` trait's value (UIKit's `UITraitCollection.userInterfaceStyle`).
    public var userInterfaceStyle: UserInterfaceStyle { UserInterfaceStyle(traitValue: self[SystemTraits.userInterfaceStyle]) ?? .unspecifiedCase }
    /// The `layoutDirection` trait's value (UIKit's `UITraitCollection.layoutDirection`).
    public var layoutDirection: LayoutDirection { LayoutDirection(traitValue: self[SystemTraits.layoutDirection]) ?? .unspecifiedCase }
    /// The `horizontalSizeClass` trait's value (UIKit's `UITraitCollection.horizontalSizeClass`).
    public var horizontalSizeClass: UserInterfaceSizeClass { UserInterfaceSizeClass(traitValue: self[SystemTraits.horizontalSizeClass]) ?? .unspecifiedCase }
    /// The `verticalSizeClass` trait's value (UIKit's `UITraitCollection.verticalSizeClass`).
    public var verticalSizeClass: UserInterfaceSizeClass { UserInterfaceSizeClass(traitValue: self[SystemTraits.verticalSizeClass]) ?? .unspecifiedCase }
    /// The `forceTouchCapability` trait's value (UIKit's `UITraitCollection.forceTouchCapability`).
    public var forceTouchCapability: ForceTouchCapability { ForceTouchCapability(traitValue: self[SystemTraits.forceTouchCapability]) ?? .unspecifiedCase }
    /// The `preferredContentSizeCategory` trait's value (UIKit's `UITraitCollection.preferredContentSizeCategory`).
    public var preferredContentSizeCategory: ContentSizeCategory { ContentSizeCategory(traitValue: self[SystemTraits.preferredContentSizeCategory]) ?? .unspecifiedCase }
    /// The `displayGamut` trait's value (UIKit's `UITraitCollection.displayGamut`).
    public var displayGamut: DisplayGamut { DisplayGamut(traitValue: self[SystemTraits.displayGamut]) ?? .unspecifiedCase }
    /// The `accessibilityContrast` trait's value (UIKit's `UITraitCollection.accessibilityContrast`).
    public var accessibilityContrast: AccessibilityContrast { AccessibilityContrast(traitValue: self[SystemTraits.accessibilityContrast]) ?? .unspecifiedCase }
    /// The `userInterfaceLevel` trait's value (UIKit's `UITraitCollection.userInterfaceLevel`).
    public var userInterfaceLevel: UserInterfaceLevel { UserInterfaceLevel(traitValue: self[SystemTraits.userInterfaceLevel]) ?? .unspecifiedCase }
    /// The `legibilityWeight` trait's value (UIKit's `UITraitCollection.legibilityWeight`).
    public var legibilityWeight: LegibilityWeight { LegibilityWeight(traitValue: self[SystemTraits.legibilityWeight]) ?? .unspecifiedCase }
    /// The `activeAppearance` trait's value (UIKit's `UITraitCollection.activeAppearance`).
    public var activeAppearance: UserInterfaceActiveAppearance { UserInterfaceActiveAppearance(traitValue: self[SystemTraits.activeAppearance]) ?? .unspecifiedCase }
    /// The `toolbarItemPresentationSize` trait's value (UIKit's `UITraitCollection.toolbarItemPresentationSize`).
    public var toolbarItemPresentationSize: ToolbarItemPresentationSize { ToolbarItemPresentationSize(traitValue: self[SystemTraits.toolbarItemPresentationSize]) ?? .unspecifiedCase }
    /// The `imageDynamicRange` trait's value (UIKit's `UITraitCollection.imageDynamicRange`).
    public var imageDynamicRange: ImageDynamicRange { ImageDynamicRange(traitValue: self[SystemTraits.imageDynamicRange]) ?? .unspecifiedCase }
    /// The `sceneCaptureState` trait's value (UIKit's `UITraitCollection.sceneCaptureState`).
    public var sceneCaptureState: SceneCaptureState { SceneCaptureState(traitValue: self[SystemTraits.sceneCaptureState]) ?? .unspecifiedCase }
    /// The `listEnvironment` trait's value (UIKit's `UITraitCollection.listEnvironment`).
    public var listEnvironment: ListEnvironment { ListEnvironment(traitValue: self[SystemTraits.listEnvironment]) ?? .unspecifiedCase }
    /// The `displayScale` trait's value (UIKit's `UITraitCollection.displayScale`).
    public var displayScale: Double { Double(traitValue: self[SystemTraits.displayScale]) ?? 0 }
    /// The `typesettingLanguage` trait's value (UIKit's `UITraitCollection.typesettingLanguage`).
    public var typesettingLanguage: String? { String?(traitValue: self[SystemTraits.typesettingLanguage]) ?? nil }
}

extension MutableTraits {
    /// The `userInterfaceIdiom` trait's value (UIKit's `UITraitCollection.userInterfaceIdiom`).
    public var userInterfaceIdiom: UserInterfaceIdiom {
        get { UserInterfaceIdiom(traitValue: value(for: SystemTraits.userInterfaceIdiom)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.userInterfaceIdiom.id) }
    }
    /// The `userInterfaceStyle` trait's value (UIKit's `UITraitCollection.userInterfaceStyle`).
    public var userInterfaceStyle: UserInterfaceStyle {
        get { UserInterfaceStyle(traitValue: value(for: SystemTraits.userInterfaceStyle)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.userInterfaceStyle.id) }
    }
    /// The `layoutDirection` trait's value (UIKit's `UITraitCollection.layoutDirection`).
    public var layoutDirection: LayoutDirection {
        get { LayoutDirection(traitValue: value(for: SystemTraits.layoutDirection)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.layoutDirection.id) }
    }
    /// The `horizontalSizeClass` trait's value (UIKit's `UITraitCollection.horizontalSizeClass`).
    public var horizontalSizeClass: UserInterfaceSizeClass {
        get { UserInterfaceSizeClass(traitValue: value(for: SystemTraits.horizontalSizeClass)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.horizontalSizeClass.id) }
    }
    /// The `verticalSizeClass` trait's value (UIKit's `UITraitCollection.verticalSizeClass`).
    public var verticalSizeClass: UserInterfaceSizeClass {
        get { UserInterfaceSizeClass(traitValue: value(for: SystemTraits.verticalSizeClass)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.verticalSizeClass.id) }
    }
    /// The `forceTouchCapability` trait's value (UIKit's `UITraitCollection.forceTouchCapability`).
    public var forceTouchCapability: ForceTouchCapability {
        get { ForceTouchCapability(traitValue: value(for: SystemTraits.forceTouchCapability)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.forceTouchCapability.id) }
    }
    /// The `preferredContentSizeCategory` trait's value (UIKit's `UITraitCollection.preferredContentSizeCategory`).
    public var preferredContentSizeCategory: ContentSizeCategory {
        get { ContentSizeCategory(traitValue: value(for: SystemTraits.preferredContentSizeCategory)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.preferredContentSizeCategory.id) }
    }
    /// The `displayGamut` trait's value (UIKit's `UITraitCollection.displayGamut`).
    public var displayGamut: DisplayGamut {
        get { DisplayGamut(traitValue: value(for: SystemTraits.displayGamut)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.displayGamut.id) }
    }
    /// The `accessibilityContrast` trait's value (UIKit's `UITraitCollection.accessibilityContrast`).
    public var accessibilityContrast: AccessibilityContrast {
        get { AccessibilityContrast(traitValue: value(for: SystemTraits.accessibilityContrast)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.accessibilityContrast.id) }
    }
    /// The `userInterfaceLevel` trait's value (UIKit's `UITraitCollection.userInterfaceLevel`).
    public var userInterfaceLevel: UserInterfaceLevel {
        get { UserInterfaceLevel(traitValue: value(for: SystemTraits.userInterfaceLevel)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.userInterfaceLevel.id) }
    }
    /// The `legibilityWeight` trait's value (UIKit's `UITraitCollection.legibilityWeight`).
    public var legibilityWeight: LegibilityWeight {
        get { LegibilityWeight(traitValue: value(for: SystemTraits.legibilityWeight)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.legibilityWeight.id) }
    }
    /// The `activeAppearance` trait's value (UIKit's `UITraitCollection.activeAppearance`).
    public var activeAppearance: UserInterfaceActiveAppearance {
        get { UserInterfaceActiveAppearance(traitValue: value(for: SystemTraits.activeAppearance)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.activeAppearance.id) }
    }
    /// The `toolbarItemPresentationSize` trait's value (UIKit's `UITraitCollection.toolbarItemPresentationSize`).
    public var toolbarItemPresentationSize: ToolbarItemPresentationSize {
        get { ToolbarItemPresentationSize(traitValue: value(for: SystemTraits.toolbarItemPresentationSize)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.toolbarItemPresentationSize.id) }
    }
    /// The `imageDynamicRange` trait's value (UIKit's `UITraitCollection.imageDynamicRange`).
    public var imageDynamicRange: ImageDynamicRange {
        get { ImageDynamicRange(traitValue: value(for: SystemTraits.imageDynamicRange)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.imageDynamicRange.id) }
    }
    /// The `sceneCaptureState` trait's value (UIKit's `UITraitCollection.sceneCaptureState`).
    public var sceneCaptureState: SceneCaptureState {
        get { SceneCaptureState(traitValue: value(for: SystemTraits.sceneCaptureState)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.sceneCaptureState.id) }
    }
    /// The `listEnvironment` trait's value (UIKit's `UITraitCollection.listEnvironment`).
    public var listEnvironment: ListEnvironment {
        get { ListEnvironment(traitValue: value(for: SystemTraits.listEnvironment)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.listEnvironment.id) }
    }
    /// The `displayScale` trait's value (UIKit's `UITraitCollection.displayScale`).
    public var displayScale: Double {
        get { Double(traitValue: value(for: SystemTraits.displayScale)) ?? 0 }
        set { store(.number(newValue), at: SystemTraits.displayScale.id) }
    }
    /// The `typesettingLanguage` trait's value (UIKit's `UITraitCollection.typesettingLanguage`).
    public var typesettingLanguage: String? {
        get { String?(traitValue: value(for: SystemTraits.typesettingLanguage)) ?? nil }
        set { store(newValue.traitValue, at: SystemTraits.typesettingLanguage.id) }
    }
}

extension TraitEnum {
    /// The first case (the default of every system enum trait).
    static var unspecifiedCase: Self { allCases.first! }
}
