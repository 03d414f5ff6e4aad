/// UIKit's system colors (R9): the dynamic ones with their light, dark, dark-elevated and
/// increased-contrast values, and the fixed ones.
///
/// Sources: Apple Human Interface Guidelines, "Color" › Specifications (system colors, default
/// and increased contrast, light and dark); the background values per level as WebKit's
/// LayoutTests list them for `-apple-system-background` and its siblings (dark base #000000,
/// dark elevated #1C1C1E, ...). Alphas of the label, separator and fill colors from the same
/// HIG table; the fixed colors are UIKit's documented component values.
extension Color {
    /// The values of one system color in each appearance.
    struct Variants {
        let light: String, dark: String
        var darkElevated: String? = nil
        var lightHigh: String? = nil, darkHigh: String? = nil, darkElevatedHigh: String? = nil
    }

    /// The dynamic color of `v`. Its variants are made once, here: the provider answers the
    /// same static color each time, with no hex to read.
    static func system(_ v: Variants) -> Color {
        func color(_ hex: String) -> Color { Color(hex: hex) ?? .clear }
        let light = color(v.light), dark = color(v.dark)
        let lightHigh = v.lightHigh.map(color) ?? light, darkHigh = v.darkHigh.map(color) ?? dark
        let darkElevated = v.darkElevated.map(color) ?? dark
        let darkElevatedHigh = (v.darkElevatedHigh ?? v.darkHigh ?? v.darkElevated).map(color) ?? dark
        return Color { tc in
            let isDark = tc.userInterfaceStyle == .dark
            let elevated = tc.userInterfaceLevel == .elevated
            let high = tc.accessibilityContrast == .high
            switch (isDark, elevated, high) {
            case (false, _, false): return light
            case (false, _, true): return lightHigh
            case (true, false, false): return dark
            case (true, false, true): return darkHigh
            case (true, true, false): return darkElevated
            case (true, true, true): return darkElevatedHigh
            }
        }
    }

    // Backgrounds: the base level, and the elevated level of dark sheets and popovers.
    /// UIKit's `UIColor.systemBackground`, in every appearance.
    public static let systemBackground = system(.init(
        light: "#FFFFFF", dark: "#000000", darkElevated: "#1C1C1E",
        lightHigh: "#FFFFFF", darkHigh: "#000000", darkElevatedHigh: "#242426"))
    /// UIKit's `UIColor.secondarySystemBackground`, in every appearance.
    public static let secondarySystemBackground = system(.init(
        light: "#F2F2F7", dark: "#1C1C1E", darkElevated: "#2C2C2E",
        lightHigh: "#EBEBF0", darkHigh: "#242426", darkElevatedHigh: "#363638"))
    /// UIKit's `UIColor.tertiarySystemBackground`, in every appearance.
    public static let tertiarySystemBackground = system(.init(
        light: "#FFFFFF", dark: "#2C2C2E", darkElevated: "#3A3A3C",
        lightHigh: "#FFFFFF", darkHigh: "#363638", darkElevatedHigh: "#444446"))
    /// UIKit's `UIColor.systemGroupedBackground`, in every appearance.
    public static let systemGroupedBackground = system(.init(
        light: "#F2F2F7", dark: "#000000", darkElevated: "#1C1C1E",
        lightHigh: "#EBEBF0", darkHigh: "#000000", darkElevatedHigh: "#242426"))
    /// UIKit's `UIColor.secondarySystemGroupedBackground`, in every appearance.
    public static let secondarySystemGroupedBackground = system(.init(
        light: "#FFFFFF", dark: "#1C1C1E", darkElevated: "#2C2C2E",
        lightHigh: "#FFFFFF", darkHigh: "#242426", darkElevatedHigh: "#363638"))
    /// UIKit's `UIColor.tertiarySystemGroupedBackground`, in every appearance.
    public static let tertiarySystemGroupedBackground = system(.init(
        light: "#F2F2F7", dark: "#2C2C2E", darkElevated: "#3A3A3C",
        lightHigh: "#EBEBF0", darkHigh: "#363638", darkElevatedHigh: "#444446"))

    // Text.
    /// UIKit's `UIColor.label`, in every appearance.
    public static let label = system(.init(light: "#000000FF", dark: "#FFFFFFFF"))
    /// UIKit's `UIColor.secondaryLabel`, in every appearance.
    public static let secondaryLabel = system(.init(
        light: "#3C3C4399", dark: "#EBEBF599", lightHigh: "#3C3C43CC", darkHigh: "#EBEBF5CC"))
    /// UIKit's `UIColor.tertiaryLabel`, in every appearance.
    public static let tertiaryLabel = system(.init(
        light: "#3C3C434C", dark: "#EBEBF54C", lightHigh: "#3C3C43B2", darkHigh: "#EBEBF5B2"))
    /// UIKit's `UIColor.quaternaryLabel`, in every appearance.
    public static let quaternaryLabel = system(.init(
        light: "#3C3C432E", dark: "#EBEBF52E", lightHigh: "#3C3C4399", darkHigh: "#EBEBF599"))
    /// UIKit's `UIColor.placeholderText`, in every appearance.
    public static let placeholderText = system(.init(
        light: "#3C3C434C", dark: "#EBEBF54C", lightHigh: "#3C3C43B2", darkHigh: "#EBEBF5B2"))
    /// UIKit's `UIColor.link`, in every appearance.
    public static let link = system(.init(light: "#007AFF", dark: "#0984FF"))
    /// UIKit's `lightText` and `darkText` do not change with the appearance.
    public static let lightText = Color(hex: "#FFFFFF99")!
    /// UIKit's `UIColor.darkText`.
    public static let darkText = Color(hex: "#000000")!

    // Separators.
    /// UIKit's `UIColor.separator`, in every appearance.
    public static let separator = system(.init(
        light: "#3C3C434A", dark: "#54545899", lightHigh: "#3C3C43FF", darkHigh: "#545458FF"))
    /// UIKit's `UIColor.opaqueSeparator`, in every appearance.
    public static let opaqueSeparator = system(.init(
        light: "#C6C6C8", dark: "#38383A", lightHigh: "#8E8E93", darkHigh: "#6C6C70"))

    // Fills, for thin and small shapes.
    /// UIKit's `UIColor.systemFill`, in every appearance.
    public static let systemFill = system(.init(
        light: "#78788033", dark: "#7878805C", lightHigh: "#78788047", darkHigh: "#78788070"))
    /// UIKit's `UIColor.secondarySystemFill`, in every appearance.
    public static let secondarySystemFill = system(.init(
        light: "#78788029", dark: "#78788052", lightHigh: "#7878803D", darkHigh: "#78788066"))
    /// UIKit's `UIColor.tertiarySystemFill`, in every appearance.
    public static let tertiarySystemFill = system(.init(
        light: "#7676801F", dark: "#7676803D", lightHigh: "#76768033", darkHigh: "#76768051"))
    /// UIKit's `UIColor.quaternarySystemFill`, in every appearance.
    public static let quaternarySystemFill = system(.init(
        light: "#74748014", dark: "#7676802E", lightHigh: "#74748029", darkHigh: "#76768042"))

    // Tints: default, dark, increased contrast light and dark.
    /// UIKit's `UIColor.systemRed`, in every appearance.
    public static let systemRed = tint("#FF3B30", "#FF453A", "#D70015", "#FF6961")
    /// UIKit's `UIColor.systemOrange`, in every appearance.
    public static let systemOrange = tint("#FF9500", "#FF9F0A", "#C93400", "#FFB340")
    /// UIKit's `UIColor.systemYellow`, in every appearance.
    public static let systemYellow = tint("#FFCC00", "#FFD60A", "#B25000", "#FFD426")
    /// UIKit's `UIColor.systemGreen`, in every appearance.
    public static let systemGreen = tint("#34C759", "#30D158", "#248A3D", "#30DB5B")
    /// UIKit's `UIColor.systemMint`, in every appearance.
    public static let systemMint = tint("#00C7BE", "#63E6E2", "#0C817B", "#66D4CF")
    /// UIKit's `UIColor.systemTeal`, in every appearance.
    public static let systemTeal = tint("#30B0C7", "#40C8E0", "#008299", "#5DE6FF")
    /// UIKit's `UIColor.systemCyan`, in every appearance.
    public static let systemCyan = tint("#32ADE6", "#64D2FF", "#0071A4", "#70D7FF")
    /// UIKit's `UIColor.systemBlue`, in every appearance.
    public static let systemBlue = tint("#007AFF", "#0A84FF", "#0040DD", "#409CFF")
    /// UIKit's `UIColor.systemIndigo`, in every appearance.
    public static let systemIndigo = tint("#5856D6", "#5E5CE6", "#3634A3", "#7D7AFF")
    /// UIKit's `UIColor.systemPurple`, in every appearance.
    public static let systemPurple = tint("#AF52DE", "#BF5AF2", "#8944AB", "#DA8FFF")
    /// UIKit's `UIColor.systemPink`, in every appearance.
    public static let systemPink = tint("#FF2D55", "#FF375F", "#D30F45", "#FF6482")
    /// UIKit's `UIColor.systemBrown`, in every appearance.
    public static let systemBrown = tint("#A2845E", "#AC8E68", "#7F6545", "#B59469")
    /// UIKit's `tintColor`: the app's accent, systemBlue unless a view sets its own.
    public static let tintColor = systemBlue

    // Grays.
    /// UIKit's `UIColor.systemGray`, in every appearance.
    public static let systemGray = tint("#8E8E93", "#8E8E93", "#6C6C70", "#AEAEB2")
    /// UIKit's `UIColor.systemGray2`, in every appearance.
    public static let systemGray2 = tint("#AEAEB2", "#636366", "#8E8E93", "#7C7C80")
    /// UIKit's `UIColor.systemGray3`, in every appearance.
    public static let systemGray3 = tint("#C7C7CC", "#48484A", "#AEAEB2", "#545456")
    /// UIKit's `UIColor.systemGray4`, in every appearance.
    public static let systemGray4 = tint("#D1D1D6", "#3A3A3C", "#BCBCC0", "#444446")
    /// UIKit's `UIColor.systemGray5`, in every appearance.
    public static let systemGray5 = tint("#E5E5EA", "#2C2C2E", "#D8D8DC", "#363638")
    /// UIKit's `UIColor.systemGray6`, in every appearance.
    public static let systemGray6 = tint("#F2F2F7", "#1C1C1E", "#EBEBF0", "#242426")

    static func tint(_ light: String, _ dark: String, _ lightHigh: String, _ darkHigh: String) -> Color {
        system(.init(light: light, dark: dark, lightHigh: lightHigh, darkHigh: darkHigh))
    }

    // UIKit's fixed colors (`UIColor.red` and the like), the same in every appearance.
    /// UIKit's `UIColor.gray`.
    public static let gray = Color(red: 0.5, green: 0.5, blue: 0.5)
    /// UIKit's `UIColor.darkGray`.
    public static let darkGray = Color(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3)
    /// UIKit's `UIColor.lightGray`.
    public static let lightGray = Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3)
    /// UIKit's `UIColor.red`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// UIKit's `UIColor.green`.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// UIKit's `UIColor.blue`.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// UIKit's `UIColor.cyan`.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// UIKit's `UIColor.yellow`.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// UIKit's `UIColor.magenta`.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// UIKit's `UIColor.orange`.
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// UIKit's `UIColor.purple`.
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
    /// UIKit's `UIColor.brown`.
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)

    /// The system and fixed colors by name, for bindings (`tk.Color.systemBackground`).
    public static let systemColors: [String: Color] = [
        "systemBackground": systemBackground, "secondarySystemBackground": secondarySystemBackground,
        "tertiarySystemBackground": tertiarySystemBackground, "systemGroupedBackground": systemGroupedBackground,
        "secondarySystemGroupedBackground": secondarySystemGroupedBackground,
        "tertiarySystemGroupedBackground": tertiarySystemGroupedBackground,
        "label": label, "secondaryLabel": secondaryLabel, "tertiaryLabel": tertiaryLabel,
        "quaternaryLabel": quaternaryLabel, "placeholderText": placeholderText, "link": link,
        "lightText": lightText, "darkText": darkText,
        "separator": separator, "opaqueSeparator": opaqueSeparator,
        "systemFill": systemFill, "secondarySystemFill": secondarySystemFill,
        "tertiarySystemFill": tertiarySystemFill, "quaternarySystemFill": quaternarySystemFill,
        "systemRed": systemRed, "systemOrange": systemOrange, "systemYellow": systemYellow,
        "systemGreen": systemGreen, "systemMint": systemMint, "systemTeal": systemTeal, "systemCyan": systemCyan,
        "systemBlue": systemBlue, "systemIndigo": systemIndigo, "systemPurple": systemPurple,
        "systemPink": systemPink, "systemBrown": systemBrown, "tintColor": tintColor,
        "systemGray": systemGray, "systemGray2": systemGray2, "systemGray3": systemGray3,
        "systemGray4": systemGray4, "systemGray5": systemGray5, "systemGray6": systemGray6,
        "black": black, "white": white, "clear": clear, "gray": gray, "darkGray": darkGray,
        "lightGray": lightGray, "red": red, "green": green, "blue": blue, "cyan": cyan,
        "yellow": yellow, "magenta": magenta, "orange": orange, "purple": purple, "brown": brown,
    ]
}
