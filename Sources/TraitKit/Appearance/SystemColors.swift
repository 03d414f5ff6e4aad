/// UIKit's dynamic system colors (R9), with their light, dark, dark-elevated and increased-
/// contrast values.
///
/// Sources: Apple Human Interface Guidelines, "Color" › Specifications (system colors, default
/// and increased contrast, light and dark); the background values per level as WebKit's
/// LayoutTests list them for `-apple-system-background` and its siblings (dark base #000000,
/// dark elevated #1C1C1E, ...). Alphas of the label and separator colors from the same HIG table.
extension Color {
    /// The values of one system color in each appearance.
    struct Variants {
        let light: String, dark: String
        var darkElevated: String? = nil
        var lightHigh: String? = nil, darkHigh: String? = nil, darkElevatedHigh: String? = nil
    }

    static func system(_ v: Variants) -> Color {
        Color { tc in
            let dark = tc.userInterfaceStyle == .dark
            let elevated = tc.userInterfaceLevel == .elevated
            let high = tc.accessibilityContrast == .high
            let hex: String
            switch (dark, elevated, high) {
            case (false, _, false): hex = v.light
            case (false, _, true): hex = v.lightHigh ?? v.light
            case (true, false, false): hex = v.dark
            case (true, false, true): hex = v.darkHigh ?? v.dark
            case (true, true, false): hex = v.darkElevated ?? v.dark
            case (true, true, true): hex = v.darkElevatedHigh ?? v.darkHigh ?? v.darkElevated ?? v.dark
            }
            return Color(hex: hex) ?? .clear
        }
    }

    public static let systemBackground = system(.init(
        light: "#FFFFFF", dark: "#000000", darkElevated: "#1C1C1E",
        lightHigh: "#FFFFFF", darkHigh: "#000000", darkElevatedHigh: "#242426"))
    public static let secondarySystemBackground = system(.init(
        light: "#F2F2F7", dark: "#1C1C1E", darkElevated: "#2C2C2E",
        lightHigh: "#EBEBF0", darkHigh: "#242426", darkElevatedHigh: "#363638"))
    public static let tertiarySystemBackground = system(.init(
        light: "#FFFFFF", dark: "#2C2C2E", darkElevated: "#3A3A3C",
        lightHigh: "#FFFFFF", darkHigh: "#363638", darkElevatedHigh: "#444446"))
    public static let systemGroupedBackground = system(.init(
        light: "#F2F2F7", dark: "#000000", darkElevated: "#1C1C1E",
        lightHigh: "#EBEBF0", darkHigh: "#000000", darkElevatedHigh: "#242426"))
    public static let label = system(.init(light: "#000000FF", dark: "#FFFFFFFF"))
    public static let secondaryLabel = system(.init(
        light: "#3C3C4399", dark: "#EBEBF599", lightHigh: "#3C3C43CC", darkHigh: "#EBEBF5CC"))
    public static let tertiaryLabel = system(.init(
        light: "#3C3C434C", dark: "#EBEBF54C", lightHigh: "#3C3C43B2", darkHigh: "#EBEBF5B2"))
    public static let separator = system(.init(
        light: "#3C3C434A", dark: "#54545899", lightHigh: "#3C3C43FF", darkHigh: "#545458FF"))
    public static let systemBlue = system(.init(
        light: "#007AFF", dark: "#0A84FF", lightHigh: "#0040DD", darkHigh: "#409CFF"))
    public static let systemRed = system(.init(
        light: "#FF3B30", dark: "#FF453A", lightHigh: "#D70015", darkHigh: "#FF6961"))
    public static let systemGreen = system(.init(
        light: "#34C759", dark: "#30D158", lightHigh: "#248A3D", darkHigh: "#30DB5B"))
    public static let systemGray = system(.init(
        light: "#8E8E93", dark: "#8E8E93", lightHigh: "#6C6C70", darkHigh: "#AEAEB2"))

    /// The system colors by name, for bindings (`tk.Color.systemBackground`).
    public static let systemColors: [String: Color] = [
        "systemBackground": systemBackground, "secondarySystemBackground": secondarySystemBackground,
        "tertiarySystemBackground": tertiarySystemBackground, "systemGroupedBackground": systemGroupedBackground,
        "label": label, "secondaryLabel": secondaryLabel, "tertiaryLabel": tertiaryLabel,
        "separator": separator, "systemBlue": systemBlue, "systemRed": systemRed, "systemGreen": systemGreen,
        "systemGray": systemGray, "black": black, "white": white, "clear": clear,
    ]
}
