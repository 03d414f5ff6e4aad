/// Typed definitions of the system traits, as UIKit's `UITraitHorizontalSizeClass` and kin:
/// `registerForTraitChanges([TraitHorizontalSizeClass.self])`, `traitOverrides[TraitUserInterfaceStyle.self] = .dark`.

/// UIKit's `UITraitUserInterfaceIdiom`: the typed handle of a system trait.
public enum TraitUserInterfaceIdiom: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = UserInterfaceIdiom.unspecified
    /// The name scripts and trees use.
    public static let name = "userInterfaceIdiom"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitUserInterfaceStyle`: the typed handle of a system trait.
public enum TraitUserInterfaceStyle: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = UserInterfaceStyle.unspecified
    /// The name scripts and trees use.
    public static let name = "userInterfaceStyle"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitLayoutDirection`: the typed handle of a system trait.
public enum TraitLayoutDirection: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = LayoutDirection.unspecified
    /// The name scripts and trees use.
    public static let name = "layoutDirection"
}

/// UIKit's `UITraitHorizontalSizeClass`: the typed handle of a system trait.
public enum TraitHorizontalSizeClass: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = UserInterfaceSizeClass.unspecified
    /// The name scripts and trees use.
    public static let name = "horizontalSizeClass"
}

/// UIKit's `UITraitVerticalSizeClass`: the typed handle of a system trait.
public enum TraitVerticalSizeClass: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = UserInterfaceSizeClass.unspecified
    /// The name scripts and trees use.
    public static let name = "verticalSizeClass"
}

/// UIKit's `UITraitForceTouchCapability`: the typed handle of a system trait.
public enum TraitForceTouchCapability: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = ForceTouchCapability.unknown
    /// The name scripts and trees use.
    public static let name = "forceTouchCapability"
}

/// UIKit's `UITraitPreferredContentSizeCategory`: the typed handle of a system trait.
public enum TraitPreferredContentSizeCategory: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = ContentSizeCategory.unspecified
    /// The name scripts and trees use.
    public static let name = "preferredContentSizeCategory"
}

/// UIKit's `UITraitDisplayGamut`: the typed handle of a system trait.
public enum TraitDisplayGamut: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = DisplayGamut.unspecified
    /// The name scripts and trees use.
    public static let name = "displayGamut"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitAccessibilityContrast`: the typed handle of a system trait.
public enum TraitAccessibilityContrast: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = AccessibilityContrast.unspecified
    /// The name scripts and trees use.
    public static let name = "accessibilityContrast"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitUserInterfaceLevel`: the typed handle of a system trait.
public enum TraitUserInterfaceLevel: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = UserInterfaceLevel.unspecified
    /// The name scripts and trees use.
    public static let name = "userInterfaceLevel"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitLegibilityWeight`: the typed handle of a system trait.
public enum TraitLegibilityWeight: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = LegibilityWeight.unspecified
    /// The name scripts and trees use.
    public static let name = "legibilityWeight"
}

/// UIKit's `UITraitActiveAppearance`: the typed handle of a system trait.
public enum TraitActiveAppearance: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = UserInterfaceActiveAppearance.unspecified
    /// The name scripts and trees use.
    public static let name = "activeAppearance"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitToolbarItemPresentationSize`: the typed handle of a system trait.
public enum TraitToolbarItemPresentationSize: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = ToolbarItemPresentationSize.unspecified
    /// The name scripts and trees use.
    public static let name = "toolbarItemPresentationSize"
}

/// UIKit's `UITraitImageDynamicRange`: the typed handle of a system trait.
public enum TraitImageDynamicRange: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = ImageDynamicRange.unspecified
    /// The name scripts and trees use.
    public static let name = "imageDynamicRange"
}

/// UIKit's `UITraitSceneCaptureState`: the typed handle of a system trait.
public enum TraitSceneCaptureState: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = SceneCaptureState.unspecified
    /// The name scripts and trees use.
    public static let name = "sceneCaptureState"
}

/// UIKit's `UITraitListEnvironment`: the typed handle of a system trait.
public enum TraitListEnvironment: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = ListEnvironment.unspecified
    /// The name scripts and trees use.
    public static let name = "listEnvironment"
    /// A change of it redraws views whose colors depend on traits.
    public static let affectsColorAppearance = true
}

/// UIKit's `UITraitDisplayScale`: the typed handle of a system trait.
public enum TraitDisplayScale: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue = 0.0
    /// The name scripts and trees use.
    public static let name = "displayScale"
}

/// UIKit's `UITraitTypesettingLanguage`: the typed handle of a system trait.
public enum TraitTypesettingLanguage: TraitDefinition {
    /// The value a node has with no override.
    public static let defaultValue: String? = nil
    /// The name scripts and trees use.
    public static let name = "typesettingLanguage"
}
