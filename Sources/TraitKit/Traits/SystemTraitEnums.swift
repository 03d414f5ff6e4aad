/// The value types of the system traits of R2, with UIKit's cases in UIKit's order.
///
/// Each is a `TraitEnum`: its cases' names are the strings scripts use. Each lists them in
/// `caseNames` rather than leave them to `String(describing:)`, which finds them by reflection:
/// for these fifteen enums that was a third of the tool's start-up. SystemTraitEnumsTests checks
/// that the lists match the cases.

/// UIKit's `UIUserInterfaceIdiom`.
public enum UserInterfaceIdiom: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, phone, pad, tv, carPlay, mac, vision
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "phone", "pad", "tv", "carPlay", "mac", "vision"]
}
/// UIKit's `UIUserInterfaceStyle`.
public enum UserInterfaceStyle: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, light, dark
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "light", "dark"]
}
/// UIKit's `UITraitEnvironmentLayoutDirection`.
public enum LayoutDirection: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, leftToRight, rightToLeft
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "leftToRight", "rightToLeft"]
}
/// UIKit's `UIUserInterfaceSizeClass`.
public enum UserInterfaceSizeClass: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, compact, regular
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "compact", "regular"]
}
/// UIKit's `UIForceTouchCapability`.
public enum ForceTouchCapability: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unknown, unavailable, available
    /// The names scripts use, in case order.
    public static let caseNames = ["unknown", "unavailable", "available"]
}
/// UIKit's `UIContentSizeCategory`.
public enum ContentSizeCategory: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    /// The larger accessibility sizes.
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge
    /// The largest accessibility size.
    case accessibilityExtraExtraExtraLarge
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "extraSmall", "small", "medium", "large", "extraLarge",
        "extraExtraLarge", "extraExtraExtraLarge", "accessibilityMedium", "accessibilityLarge",
        "accessibilityExtraLarge", "accessibilityExtraExtraLarge", "accessibilityExtraExtraExtraLarge"]
}
/// UIKit's `UIDisplayGamut`.
public enum DisplayGamut: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, SRGB, P3
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "SRGB", "P3"]
}
/// UIKit's `UIAccessibilityContrast`.
public enum AccessibilityContrast: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, normal, high
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "normal", "high"]
}
/// UIKit's `UIUserInterfaceLevel`.
public enum UserInterfaceLevel: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, base, elevated
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "base", "elevated"]
}
/// UIKit's `UILegibilityWeight`.
public enum LegibilityWeight: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, regular, bold
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "regular", "bold"]
}
/// UIKit's `UIUserInterfaceActiveAppearance`.
public enum UserInterfaceActiveAppearance: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, inactive, active
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "inactive", "active"]
}
/// UIKit's `UINSToolbarItemPresentationSize`.
public enum ToolbarItemPresentationSize: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, regular, small, large
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "regular", "small", "large"]
}
/// UIKit's `UIImage.DynamicRange`.
public enum ImageDynamicRange: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, standard, constrainedHigh, high
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "standard", "constrainedHigh", "high"]
}
/// UIKit's `UISceneCaptureState`.
public enum SceneCaptureState: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, inactive, active
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "inactive", "active"]
}
/// UIKit's `UIListEnvironment`.
public enum ListEnvironment: Int, TraitEnum {
    /// UIKit's cases in UIKit's order; scripts write their names as strings.
    case unspecified, none, plain, grouped, insetGrouped, sidebar, sidebarPlain
    /// The names scripts use, in case order.
    public static let caseNames = ["unspecified", "none", "plain", "grouped", "insetGrouped", "sidebar",
        "sidebarPlain"]
}
