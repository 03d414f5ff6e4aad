/// The system traits as properties of `traitOverrides`, as UIKit code writes them
/// (`view.traitOverrides.horizontalSizeClass = .compact`). A property reads nil when the node
/// has no override for the trait (UIKit raises there), and assigning nil removes the override.
/// `typesettingLanguage`, whose values are already optional, goes through the subscript:
/// `traitOverrides[TraitTypesettingLanguage.self]`.
extension TraitOverrides {
    /// The override of `userInterfaceIdiom`; nil when there is none, and assigning nil removes it.
    public var userInterfaceIdiom: UserInterfaceIdiom? {
        get { self[TraitUserInterfaceIdiom.self] }
        nonmutating set { self[TraitUserInterfaceIdiom.self] = newValue }
    }
    /// The override of `userInterfaceStyle`; nil when there is none, and assigning nil removes it.
    public var userInterfaceStyle: UserInterfaceStyle? {
        get { self[TraitUserInterfaceStyle.self] }
        nonmutating set { self[TraitUserInterfaceStyle.self] = newValue }
    }
    /// The override of `layoutDirection`; nil when there is none, and assigning nil removes it.
    public var layoutDirection: LayoutDirection? {
        get { self[TraitLayoutDirection.self] }
        nonmutating set { self[TraitLayoutDirection.self] = newValue }
    }
    /// The override of `horizontalSizeClass`; nil when there is none, and assigning nil removes it.
    public var horizontalSizeClass: UserInterfaceSizeClass? {
        get { self[TraitHorizontalSizeClass.self] }
        nonmutating set { self[TraitHorizontalSizeClass.self] = newValue }
    }
    /// The override of `verticalSizeClass`; nil when there is none, and assigning nil removes it.
    public var verticalSizeClass: UserInterfaceSizeClass? {
        get { self[TraitVerticalSizeClass.self] }
        nonmutating set { self[TraitVerticalSizeClass.self] = newValue }
    }
    /// The override of `forceTouchCapability`; nil when there is none, and assigning nil removes it.
    public var forceTouchCapability: ForceTouchCapability? {
        get { self[TraitForceTouchCapability.self] }
        nonmutating set { self[TraitForceTouchCapability.self] = newValue }
    }
    /// The override of `preferredContentSizeCategory`; nil when there is none, and assigning nil removes it.
    public var preferredContentSizeCategory: ContentSizeCategory? {
        get { self[TraitPreferredContentSizeCategory.self] }
        nonmutating set { self[TraitPreferredContentSizeCategory.self] = newValue }
    }
    /// The override of `displayGamut`; nil when there is none, and assigning nil removes it.
    public var displayGamut: DisplayGamut? {
        get { self[TraitDisplayGamut.self] }
        nonmutating set { self[TraitDisplayGamut.self] = newValue }
    }
    /// The override of `accessibilityContrast`; nil when there is none, and assigning nil removes it.
    public var accessibilityContrast: AccessibilityContrast? {
        get { self[TraitAccessibilityContrast.self] }
        nonmutating set { self[TraitAccessibilityContrast.self] = newValue }
    }
    /// The override of `userInterfaceLevel`; nil when there is none, and assigning nil removes it.
    public var userInterfaceLevel: UserInterfaceLevel? {
        get { self[TraitUserInterfaceLevel.self] }
        nonmutating set { self[TraitUserInterfaceLevel.self] = newValue }
    }
    /// The override of `legibilityWeight`; nil when there is none, and assigning nil removes it.
    public var legibilityWeight: LegibilityWeight? {
        get { self[TraitLegibilityWeight.self] }
        nonmutating set { self[TraitLegibilityWeight.self] = newValue }
    }
    /// The override of `activeAppearance`; nil when there is none, and assigning nil removes it.
    public var activeAppearance: UserInterfaceActiveAppearance? {
        get { self[TraitActiveAppearance.self] }
        nonmutating set { self[TraitActiveAppearance.self] = newValue }
    }
    /// The override of `toolbarItemPresentationSize`; nil when there is none, and assigning nil removes it.
    public var toolbarItemPresentationSize: ToolbarItemPresentationSize? {
        get { self[TraitToolbarItemPresentationSize.self] }
        nonmutating set { self[TraitToolbarItemPresentationSize.self] = newValue }
    }
    /// The override of `imageDynamicRange`; nil when there is none, and assigning nil removes it.
    public var imageDynamicRange: ImageDynamicRange? {
        get { self[TraitImageDynamicRange.self] }
        nonmutating set { self[TraitImageDynamicRange.self] = newValue }
    }
    /// The override of `sceneCaptureState`; nil when there is none, and assigning nil removes it.
    public var sceneCaptureState: SceneCaptureState? {
        get { self[TraitSceneCaptureState.self] }
        nonmutating set { self[TraitSceneCaptureState.self] = newValue }
    }
    /// The override of `listEnvironment`; nil when there is none, and assigning nil removes it.
    public var listEnvironment: ListEnvironment? {
        get { self[TraitListEnvironment.self] }
        nonmutating set { self[TraitListEnvironment.self] = newValue }
    }
    /// The override of `displayScale`; nil when there is none, and assigning nil removes it.
    public var displayScale: Double? {
        get { self[TraitDisplayScale.self] }
        nonmutating set { self[TraitDisplayScale.self] = newValue }
    }
}
