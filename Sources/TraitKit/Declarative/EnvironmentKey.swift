/// R10: a key of the declarative layer's environment (SwiftUI's `EnvironmentKey`), with a
/// default. A bridged key also reads its value from a trait collection and writes it into
/// traits (UIKit's `UITraitBridgedEnvironmentKey`), so UIKit overrides reach declarative
/// bodies and environment values reach hosted view controllers.
public final class EnvironmentKey: @unchecked Sendable {
    // @unchecked: immutable after init; its closures run on the hierarchy's thread.
    public typealias Read = (TraitCollection) throws -> TraitValue
    public typealias Write = (inout MutableTraits, TraitValue) throws -> Void

    public let name: String
    public let defaultValue: TraitValue
    public let read: Read?
    public let write: Write?
    /// The trait the key writes, when it is one trait.
    public let bridgedTrait: Trait?
    /// A `bridge = trait` key: its values are the trait's values.
    public let isDirectBridge: Bool

    public init(name: String, defaultValue: TraitValue, read: Read? = nil, write: Write? = nil,
                bridgedTrait: Trait? = nil) {
        self.name = name
        self.defaultValue = defaultValue
        self.read = read
        self.write = write
        self.bridgedTrait = bridgedTrait
        self.isDirectBridge = false
    }

    /// A key bridged one to one to `trait`.
    public init(name: String, bridge trait: Trait, defaultValue: TraitValue? = nil) {
        self.name = name
        self.defaultValue = defaultValue ?? trait.defaultValue
        self.bridgedTrait = trait
        self.isDirectBridge = true
        self.read = { $0[trait] }
        self.write = { traits, value in try traits.set(value, for: trait) }
    }

    public var isBridged: Bool { read != nil }
}

extension EnvironmentKey {
    /// A key bridged to an enum trait whose declarative names differ from the trait's cases;
    /// `names[i]` is the environment value of case `i` (nil: the key reads nil there).
    static func mapped(_ name: String, _ trait: Trait, _ names: [String?], default defaultName: String?) -> EnvironmentKey {
        let cases = trait.cases ?? []
        return EnvironmentKey(
            name: name,
            defaultValue: defaultName.map { .string($0) } ?? .none,
            read: { tc in
                guard case .enumCase(let i) = tc[trait], names.indices.contains(i), let value = names[i] else {
                    return defaultName.map { .string($0) } ?? .none
                }
                return .string(value)
            },
            write: { traits, value in
                guard case .string(let s) = value, let i = names.firstIndex(of: s), cases.indices.contains(i) else {
                    throw TraitError.invalidValue(trait: name, value: "\(value)",
                                                  expected: "one of: " + names.compactMap { $0 }.joined(separator: ", "))
                }
                try traits.set(.enumCase(i), for: trait)
            },
            bridgedTrait: trait)
    }

    /// The built-in bridged keys of R10, with SwiftUI's value names.
    public static let colorScheme = mapped("colorScheme", SystemTraits.userInterfaceStyle,
                                           ["light", "light", "dark"], default: "light")
    public static let horizontalSizeClass = mapped("horizontalSizeClass", SystemTraits.horizontalSizeClass,
                                                   [nil, "compact", "regular"], default: nil)
    public static let verticalSizeClass = mapped("verticalSizeClass", SystemTraits.verticalSizeClass,
                                                 [nil, "compact", "regular"], default: nil)
    public static let layoutDirection = mapped("layoutDirection", SystemTraits.layoutDirection,
                                               ["leftToRight", "leftToRight", "rightToLeft"], default: "leftToRight")
    public static let displayScale = EnvironmentKey(name: "displayScale", defaultValue: .number(1),
        read: { tc in tc.displayScale > 0 ? .number(tc.displayScale) : .number(1) },
        write: { traits, value in try traits.set(value, for: SystemTraits.displayScale) },
        bridgedTrait: SystemTraits.displayScale)
    public static let dynamicTypeSize = mapped("dynamicTypeSize", SystemTraits.preferredContentSizeCategory,
        ["large", "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge",
         "accessibility1", "accessibility2", "accessibility3", "accessibility4", "accessibility5"], default: "large")
    public static let colorSchemeContrast = mapped("colorSchemeContrast", SystemTraits.accessibilityContrast,
                                                   ["standard", "standard", "increased"], default: "standard")
    public static let legibilityWeight = mapped("legibilityWeight", SystemTraits.legibilityWeight,
                                                [nil, "regular", "bold"], default: nil)

    public static let builtIn: [EnvironmentKey] = [
        colorScheme, horizontalSizeClass, verticalSizeClass, layoutDirection, displayScale, dynamicTypeSize,
        colorSchemeContrast, legibilityWeight,
    ]
}
