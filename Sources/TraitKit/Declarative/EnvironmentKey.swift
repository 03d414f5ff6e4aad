/// R10: a key of the declarative layer's environment (SwiftUI's `EnvironmentKey`), with a
/// default. A bridged key also reads its value from a trait collection and writes it into
/// traits (UIKit's `UITraitBridgedEnvironmentKey`), so UIKit overrides reach declarative
/// bodies and environment values reach hosted view controllers.
public final class EnvironmentKey: @unchecked Sendable {
    // @unchecked: immutable after init; its closures run on the hierarchy's thread.
    /// Computes the key's value from a host's traits.
    public typealias Read = (TraitCollection) throws -> TraitValue
    /// Writes a value set on an element into the traits of what it hosts.
    public typealias Write = (inout MutableTraits, TraitValue) throws -> Void

    /// The key's name (`env.theme` in a Lua body).
    public let name: String
    /// The value where nothing sets the key and nothing bridges it.
    public let defaultValue: TraitValue
    /// How a bridged key reads traits; nil for a plain key.
    public let read: Read?
    /// How a bridged key writes traits; nil for a plain key.
    public let write: Write?
    /// The trait the key writes, when it is one trait.
    public let bridgedTrait: Trait?
    /// A `bridge = trait` key: its values are the trait's values.
    public let isDirectBridge: Bool
    /// The values a built-in key takes, so a bad one is refused where it is set
    /// (`element:environment(key, value)`), not later where it is written into traits.
    let accepts: (@Sendable (TraitValue) -> Bool)?
    /// What `accepts` takes, for error messages.
    let expectation: String

    /// A key with a default, bridged through `read`/`write` when given.
    public convenience init(name: String, defaultValue: TraitValue, read: Read? = nil, write: Write? = nil,
                            bridgedTrait: Trait? = nil) {
        self.init(name: name, defaultValue: defaultValue, read: read, write: write, bridgedTrait: bridgedTrait,
                  accepts: nil, expectation: "")
    }

    init(name: String, defaultValue: TraitValue, read: Read?, write: Write?, bridgedTrait: Trait?,
         accepts: (@Sendable (TraitValue) -> Bool)?, expectation: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.read = read
        self.write = write
        self.bridgedTrait = bridgedTrait
        self.isDirectBridge = false
        self.accepts = accepts
        self.expectation = expectation
    }

    /// A key bridged one to one to `trait`.
    public init(name: String, bridge trait: Trait, defaultValue: TraitValue? = nil) {
        self.name = name
        self.defaultValue = defaultValue ?? trait.defaultValue
        self.bridgedTrait = trait
        self.isDirectBridge = true
        self.read = { $0[trait] }
        self.write = { traits, value in try traits.set(value, for: trait) }
        self.accepts = { trait.kind.accepts($0) }
        self.expectation = trait.kind.expectation
    }

    /// Whether the key reads its value from traits.
    public var isBridged: Bool { read != nil }

    /// Checks a value set for this key; keys made with a `read`/`write` pair of their own take
    /// any value (their `write` decides at render time).
    public func validate(_ value: TraitValue) throws(TraitError) {
        guard let accepts, !accepts(value) else { return }
        throw .invalidEnvironmentValue(key: name, value: Self.describe(value), expected: expectation)
    }

    /// A value as a script wrote it: strings quoted, numbers as `%.14g`.
    public static func describe(_ value: TraitValue) -> String {
        switch value {
        case .none: "nil"
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .number(let d): formatNumber(d)
        case .string(let s): "\"\(clipped(s))\""
        case .enumCase(let i): String(i)
        case .record: "a table"
        case .object(let o): (o.object as? CustomStringConvertible)?.description ?? "an object"
        }
    }
}

extension EnvironmentKey: CustomStringConvertible {
    public var description: String { "<EnvironmentKey '\(name)'>" }
}

extension EnvironmentKey {
    /// A key bridged to an enum trait whose declarative names differ from the trait's cases;
    /// `names[i]` is the environment value of case `i` (nil: the key reads nil there).
    static func mapped(_ name: String, _ trait: Trait, _ names: [String?], default defaultName: String?) -> EnvironmentKey {
        let cases = trait.cases ?? []
        // In case order (a name that also stands for `unspecified` comes where its own case is).
        let distinct = names.enumerated().compactMap { i, n in n.flatMap { names[(i + 1)...].contains($0) ? nil : $0 } }
        let optional = names.contains(nil)
        let accepts: @Sendable (TraitValue) -> Bool = { value in
            if case .string(let s) = value { return distinct.contains(s) }
            return value == .none && optional
        }
        let expectation = "one of: " + distinct.joined(separator: ", ") + (optional ? ", or nil" : "")
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
                guard accepts(value) else {
                    throw TraitError.invalidEnvironmentValue(key: name, value: describe(value), expected: expectation)
                }
                let named: String? = if case .string(let s) = value { s } else { nil }
                guard let i = names.lastIndex(of: named), cases.indices.contains(i) else { return }
                try traits.set(.enumCase(i), for: trait)
            },
            bridgedTrait: trait, accepts: accepts, expectation: expectation)
    }

    /// The built-in bridged keys of R10, with SwiftUI's value names.
    public static let colorScheme = mapped("colorScheme", SystemTraits.userInterfaceStyle,
                                           ["light", "light", "dark"], default: "light")
    /// SwiftUI's `horizontalSizeClass` (nil, `compact`, `regular`).
    public static let horizontalSizeClass = mapped("horizontalSizeClass", SystemTraits.horizontalSizeClass,
                                                   [nil, "compact", "regular"], default: nil)
    /// SwiftUI's `verticalSizeClass` (nil, `compact`, `regular`).
    public static let verticalSizeClass = mapped("verticalSizeClass", SystemTraits.verticalSizeClass,
                                                 [nil, "compact", "regular"], default: nil)
    /// SwiftUI's `layoutDirection` (`leftToRight`, `rightToLeft`).
    public static let layoutDirection = mapped("layoutDirection", SystemTraits.layoutDirection,
                                               ["leftToRight", "leftToRight", "rightToLeft"], default: "leftToRight")
    /// SwiftUI's `displayScale`: a positive number, 1 where the screen gives none.
    public static let displayScale = EnvironmentKey(name: "displayScale", defaultValue: .number(1),
        read: { tc in tc.displayScale > 0 ? .number(tc.displayScale) : .number(1) },
        write: { traits, value in
            guard let scale = positiveNumber(value) else {
                throw TraitError.invalidEnvironmentValue(key: "displayScale", value: describe(value), expected: "a positive number")
            }
            try traits.set(.number(scale), for: SystemTraits.displayScale)
        },
        bridgedTrait: SystemTraits.displayScale, accepts: { positiveNumber($0) != nil }, expectation: "a positive number")

    private static func positiveNumber(_ value: TraitValue) -> Double? {
        switch value {
        case .integer(let i) where i > 0: Double(i)
        case .number(let d) where d > 0 && d.isFinite: d
        default: nil
        }
    }
    /// SwiftUI's `dynamicTypeSize` (`xSmall` ... `accessibility5`), from the content size category.
    public static let dynamicTypeSize = mapped("dynamicTypeSize", SystemTraits.preferredContentSizeCategory,
        ["large", "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge",
         "accessibility1", "accessibility2", "accessibility3", "accessibility4", "accessibility5"], default: "large")
    /// SwiftUI's `colorSchemeContrast` (`standard`, `increased`).
    public static let colorSchemeContrast = mapped("colorSchemeContrast", SystemTraits.accessibilityContrast,
                                                   ["standard", "standard", "increased"], default: "standard")
    /// SwiftUI's `legibilityWeight` (nil, `regular`, `bold`).
    public static let legibilityWeight = mapped("legibilityWeight", SystemTraits.legibilityWeight,
                                                [nil, "regular", "bold"], default: nil)

    /// Every built-in key, for bindings to offer by name.
    public static let builtIn: [EnvironmentKey] = [
        colorScheme, horizontalSizeClass, verticalSizeClass, layoutDirection, displayScale, dynamicTypeSize,
        colorSchemeContrast, legibilityWeight,
    ]
}
