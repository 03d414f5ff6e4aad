/// Typed properties for the system traits, as UIKit has them on `UITraitCollection` and
/// `UIMutableTraits` (`tc.horizontalSizeClass`, `traits.userInterfaceStyle = .dark`).

extension TraitCollection {
    public var userInterfaceIdiom: UserInterfaceIdiom { UserInterfaceIdiom(traitValue: self[SystemTraits.userInterfaceIdiom]) ?? .unspecifiedCase }
    public var userInterfaceStyle: UserInterfaceStyle { UserInterfaceStyle(traitValue: self[SystemTraits.userInterfaceStyle]) ?? .unspecifiedCase }
    public var layoutDirection: LayoutDirection { LayoutDirection(traitValue: self[SystemTraits.layoutDirection]) ?? .unspecifiedCase }
    public var horizontalSizeClass: UserInterfaceSizeClass { UserInterfaceSizeClass(traitValue: self[SystemTraits.horizontalSizeClass]) ?? .unspecifiedCase }
    public var verticalSizeClass: UserInterfaceSizeClass { UserInterfaceSizeClass(traitValue: self[SystemTraits.verticalSizeClass]) ?? .unspecifiedCase }
    public var forceTouchCapability: ForceTouchCapability { ForceTouchCapability(traitValue: self[SystemTraits.forceTouchCapability]) ?? .unspecifiedCase }
    public var preferredContentSizeCategory: ContentSizeCategory { ContentSizeCategory(traitValue: self[SystemTraits.preferredContentSizeCategory]) ?? .unspecifiedCase }
    public var displayGamut: DisplayGamut { DisplayGamut(traitValue: self[SystemTraits.displayGamut]) ?? .unspecifiedCase }
    public var accessibilityContrast: AccessibilityContrast { AccessibilityContrast(traitValue: self[SystemTraits.accessibilityContrast]) ?? .unspecifiedCase }
    public var userInterfaceLevel: UserInterfaceLevel { UserInterfaceLevel(traitValue: self[SystemTraits.userInterfaceLevel]) ?? .unspecifiedCase }
    public var legibilityWeight: LegibilityWeight { LegibilityWeight(traitValue: self[SystemTraits.legibilityWeight]) ?? .unspecifiedCase }
    public var activeAppearance: UserInterfaceActiveAppearance { UserInterfaceActiveAppearance(traitValue: self[SystemTraits.activeAppearance]) ?? .unspecifiedCase }
    public var toolbarItemPresentationSize: ToolbarItemPresentationSize { ToolbarItemPresentationSize(traitValue: self[SystemTraits.toolbarItemPresentationSize]) ?? .unspecifiedCase }
    public var imageDynamicRange: ImageDynamicRange { ImageDynamicRange(traitValue: self[SystemTraits.imageDynamicRange]) ?? .unspecifiedCase }
    public var sceneCaptureState: SceneCaptureState { SceneCaptureState(traitValue: self[SystemTraits.sceneCaptureState]) ?? .unspecifiedCase }
    public var listEnvironment: ListEnvironment { ListEnvironment(traitValue: self[SystemTraits.listEnvironment]) ?? .unspecifiedCase }
    public var displayScale: Double { Double(traitValue: self[SystemTraits.displayScale]) ?? 0 }
    public var typesettingLanguage: String? { String?(traitValue: self[SystemTraits.typesettingLanguage]) ?? nil }
}

extension MutableTraits {
    public var userInterfaceIdiom: UserInterfaceIdiom {
        get { UserInterfaceIdiom(traitValue: value(for: SystemTraits.userInterfaceIdiom)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.userInterfaceIdiom.id) }
    }
    public var userInterfaceStyle: UserInterfaceStyle {
        get { UserInterfaceStyle(traitValue: value(for: SystemTraits.userInterfaceStyle)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.userInterfaceStyle.id) }
    }
    public var layoutDirection: LayoutDirection {
        get { LayoutDirection(traitValue: value(for: SystemTraits.layoutDirection)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.layoutDirection.id) }
    }
    public var horizontalSizeClass: UserInterfaceSizeClass {
        get { UserInterfaceSizeClass(traitValue: value(for: SystemTraits.horizontalSizeClass)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.horizontalSizeClass.id) }
    }
    public var verticalSizeClass: UserInterfaceSizeClass {
        get { UserInterfaceSizeClass(traitValue: value(for: SystemTraits.verticalSizeClass)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.verticalSizeClass.id) }
    }
    public var forceTouchCapability: ForceTouchCapability {
        get { ForceTouchCapability(traitValue: value(for: SystemTraits.forceTouchCapability)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.forceTouchCapability.id) }
    }
    public var preferredContentSizeCategory: ContentSizeCategory {
        get { ContentSizeCategory(traitValue: value(for: SystemTraits.preferredContentSizeCategory)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.preferredContentSizeCategory.id) }
    }
    public var displayGamut: DisplayGamut {
        get { DisplayGamut(traitValue: value(for: SystemTraits.displayGamut)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.displayGamut.id) }
    }
    public var accessibilityContrast: AccessibilityContrast {
        get { AccessibilityContrast(traitValue: value(for: SystemTraits.accessibilityContrast)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.accessibilityContrast.id) }
    }
    public var userInterfaceLevel: UserInterfaceLevel {
        get { UserInterfaceLevel(traitValue: value(for: SystemTraits.userInterfaceLevel)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.userInterfaceLevel.id) }
    }
    public var legibilityWeight: LegibilityWeight {
        get { LegibilityWeight(traitValue: value(for: SystemTraits.legibilityWeight)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.legibilityWeight.id) }
    }
    public var activeAppearance: UserInterfaceActiveAppearance {
        get { UserInterfaceActiveAppearance(traitValue: value(for: SystemTraits.activeAppearance)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.activeAppearance.id) }
    }
    public var toolbarItemPresentationSize: ToolbarItemPresentationSize {
        get { ToolbarItemPresentationSize(traitValue: value(for: SystemTraits.toolbarItemPresentationSize)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.toolbarItemPresentationSize.id) }
    }
    public var imageDynamicRange: ImageDynamicRange {
        get { ImageDynamicRange(traitValue: value(for: SystemTraits.imageDynamicRange)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.imageDynamicRange.id) }
    }
    public var sceneCaptureState: SceneCaptureState {
        get { SceneCaptureState(traitValue: value(for: SystemTraits.sceneCaptureState)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.sceneCaptureState.id) }
    }
    public var listEnvironment: ListEnvironment {
        get { ListEnvironment(traitValue: value(for: SystemTraits.listEnvironment)) ?? .unspecifiedCase }
        set { store(newValue.traitValue, at: SystemTraits.listEnvironment.id) }
    }
    public var displayScale: Double {
        get { Double(traitValue: value(for: SystemTraits.displayScale)) ?? 0 }
        set { store(.number(newValue), at: SystemTraits.displayScale.id) }
    }
    public var typesettingLanguage: String? {
        get { String?(traitValue: value(for: SystemTraits.typesettingLanguage)) ?? nil }
        set { store(newValue.traitValue, at: SystemTraits.typesettingLanguage.id) }
    }
}

extension TraitEnum {
    /// The first case (the default of every system enum trait).
    static var unspecifiedCase: Self { allCases.first! }
}
