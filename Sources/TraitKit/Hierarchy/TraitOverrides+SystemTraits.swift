/// The system traits as properties of `traitOverrides`, as UIKit code writes them
/// (`view.traitOverrides.horizontalSizeClass = .compact`). A property reads nil when the node
/// has no override for the trait (UIKit raises there), and assigning nil removes the override.
/// `typesettingLanguage`, whose values are already optional, goes through the subscript:
/// `traitOverrides[TraitTypesettingLanguage.self]`.
extension TraitOverrides {
    public var userInterfaceIdiom: UserInterfaceIdiom? {
        get { self[TraitUserInterfaceIdiom.self] }
        nonmutating set { self[TraitUserInterfaceIdiom.self] = newValue }
    }
    public var userInterfaceStyle: UserInterfaceStyle? {
        get { self[TraitUserInterfaceStyle.self] }
        nonmutating set { self[TraitUserInterfaceStyle.self] = newValue }
    }
    public var layoutDirection: LayoutDirection? {
        get { self[TraitLayoutDirection.self] }
        nonmutating set { self[TraitLayoutDirection.self] = newValue }
    }
    public var horizontalSizeClass: UserInterfaceSizeClass? {
        get { self[TraitHorizontalSizeClass.self] }
        nonmutating set { self[TraitHorizontalSizeClass.self] = newValue }
    }
    public var verticalSizeClass: UserInterfaceSizeClass? {
        get { self[TraitVerticalSizeClass.self] }
        nonmutating set { self[TraitVerticalSizeClass.self] = newValue }
    }
    public var forceTouchCapability: ForceTouchCapability? {
        get { self[TraitForceTouchCapability.self] }
        nonmutating set { self[TraitForceTouchCapability.self] = newValue }
    }
    public var preferredContentSizeCategory: ContentSizeCategory? {
        get { self[TraitPreferredContentSizeCategory.self] }
        nonmutating set { self[TraitPreferredContentSizeCategory.self] = newValue }
    }
    public var displayGamut: DisplayGamut? {
        get { self[TraitDisplayGamut.self] }
        nonmutating set { self[TraitDisplayGamut.self] = newValue }
    }
    public var accessibilityContrast: AccessibilityContrast? {
        get { self[TraitAccessibilityContrast.self] }
        nonmutating set { self[TraitAccessibilityContrast.self] = newValue }
    }
    public var userInterfaceLevel: UserInterfaceLevel? {
        get { self[TraitUserInterfaceLevel.self] }
        nonmutating set { self[TraitUserInterfaceLevel.self] = newValue }
    }
    public var legibilityWeight: LegibilityWeight? {
        get { self[TraitLegibilityWeight.self] }
        nonmutating set { self[TraitLegibilityWeight.self] = newValue }
    }
    public var activeAppearance: UserInterfaceActiveAppearance? {
        get { self[TraitActiveAppearance.self] }
        nonmutating set { self[TraitActiveAppearance.self] = newValue }
    }
    public var toolbarItemPresentationSize: ToolbarItemPresentationSize? {
        get { self[TraitToolbarItemPresentationSize.self] }
        nonmutating set { self[TraitToolbarItemPresentationSize.self] = newValue }
    }
    public var imageDynamicRange: ImageDynamicRange? {
        get { self[TraitImageDynamicRange.self] }
        nonmutating set { self[TraitImageDynamicRange.self] = newValue }
    }
    public var sceneCaptureState: SceneCaptureState? {
        get { self[TraitSceneCaptureState.self] }
        nonmutating set { self[TraitSceneCaptureState.self] = newValue }
    }
    public var listEnvironment: ListEnvironment? {
        get { self[TraitListEnvironment.self] }
        nonmutating set { self[TraitListEnvironment.self] = newValue }
    }
    public var displayScale: Double? {
        get { self[TraitDisplayScale.self] }
        nonmutating set { self[TraitDisplayScale.self] = newValue }
    }
}
