/// The value types of the system traits of R2, with UIKit's cases in UIKit's order.
///
/// Each is a `TraitEnum`: its cases' names are the strings scripts use.

public enum UserInterfaceIdiom: Int, TraitEnum { case unspecified, phone, pad, tv, carPlay, mac, vision }
public enum UserInterfaceStyle: Int, TraitEnum { case unspecified, light, dark }
public enum LayoutDirection: Int, TraitEnum { case unspecified, leftToRight, rightToLeft }
public enum UserInterfaceSizeClass: Int, TraitEnum { case unspecified, compact, regular }
public enum ForceTouchCapability: Int, TraitEnum { case unknown, unavailable, available }
public enum ContentSizeCategory: Int, TraitEnum {
    case unspecified, extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge
    case accessibilityExtraExtraExtraLarge
}
public enum DisplayGamut: Int, TraitEnum { case unspecified, SRGB, P3 }
public enum AccessibilityContrast: Int, TraitEnum { case unspecified, normal, high }
public enum UserInterfaceLevel: Int, TraitEnum { case unspecified, base, elevated }
public enum LegibilityWeight: Int, TraitEnum { case unspecified, regular, bold }
public enum UserInterfaceActiveAppearance: Int, TraitEnum { case unspecified, inactive, active }
public enum ToolbarItemPresentationSize: Int, TraitEnum { case unspecified, regular, small, large }
public enum ImageDynamicRange: Int, TraitEnum { case unspecified, standard, constrainedHigh, high }
public enum SceneCaptureState: Int, TraitEnum { case unspecified, inactive, active }
public enum ListEnvironment: Int, TraitEnum { case unspecified, none, plain, grouped, insetGrouped, sidebar, sidebarPlain }
