/// Typed definitions of the system traits, as UIKit's `UITraitHorizontalSizeClass` and kin:
/// `registerForTraitChanges([TraitHorizontalSizeClass.self])`, `traitOverrides[TraitUserInterfaceStyle.self] = .dark`.

public enum TraitUserInterfaceIdiom: TraitDefinition {
    public static let defaultValue = UserInterfaceIdiom.unspecified
    public static let name = "userInterfaceIdiom"
    public static let affectsColorAppearance = true
}

public enum TraitUserInterfaceStyle: TraitDefinition {
    public static let defaultValue = UserInterfaceStyle.unspecified
    public static let name = "userInterfaceStyle"
    public static let affectsColorAppearance = true
}

public enum TraitLayoutDirection: TraitDefinition {
    public static let defaultValue = LayoutDirection.unspecified
    public static let name = "layoutDirection"
}

public enum TraitHorizontalSizeClass: TraitDefinition {
    public static let defaultValue = UserInterfaceSizeClass.unspecified
    public static let name = "horizontalSizeClass"
}

public enum TraitVerticalSizeClass: TraitDefinition {
    public static let defaultValue = UserInterfaceSizeClass.unspecified
    public static let name = "verticalSizeClass"
}

public enum TraitForceTouchCapability: TraitDefinition {
    public static let defaultValue = ForceTouchCapability.unknown
    public static let name = "forceTouchCapability"
}

public enum TraitPreferredContentSizeCategory: TraitDefinition {
    public static let defaultValue = ContentSizeCategory.unspecified
    public static let name = "preferredContentSizeCategory"
}

public enum TraitDisplayGamut: TraitDefinition {
    public static let defaultValue = DisplayGamut.unspecified
    public static let name = "displayGamut"
    public static let affectsColorAppearance = true
}

public enum TraitAccessibilityContrast: TraitDefinition {
    public static let defaultValue = AccessibilityContrast.unspecified
    public static let name = "accessibilityContrast"
    public static let affectsColorAppearance = true
}

public enum TraitUserInterfaceLevel: TraitDefinition {
    public static let defaultValue = UserInterfaceLevel.unspecified
    public static let name = "userInterfaceLevel"
    public static let affectsColorAppearance = true
}

public enum TraitLegibilityWeight: TraitDefinition {
    public static let defaultValue = LegibilityWeight.unspecified
    public static let name = "legibilityWeight"
}

public enum TraitActiveAppearance: TraitDefinition {
    public static let defaultValue = UserInterfaceActiveAppearance.unspecified
    public static let name = "activeAppearance"
    public static let affectsColorAppearance = true
}

public enum TraitToolbarItemPresentationSize: TraitDefinition {
    public static let defaultValue = ToolbarItemPresentationSize.unspecified
    public static let name = "toolbarItemPresentationSize"
}

public enum TraitImageDynamicRange: TraitDefinition {
    public static let defaultValue = ImageDynamicRange.unspecified
    public static let name = "imageDynamicRange"
}

public enum TraitSceneCaptureState: TraitDefinition {
    public static let defaultValue = SceneCaptureState.unspecified
    public static let name = "sceneCaptureState"
}

public enum TraitListEnvironment: TraitDefinition {
    public static let defaultValue = ListEnvironment.unspecified
    public static let name = "listEnvironment"
    public static let affectsColorAppearance = true
}

public enum TraitDisplayScale: TraitDefinition {
    public static let defaultValue = 0.0
    public static let name = "displayScale"
}

public enum TraitTypesettingLanguage: TraitDefinition {
    public static let defaultValue: String? = nil
    public static let name = "typesettingLanguage"
}
