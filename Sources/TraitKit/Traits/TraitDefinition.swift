
/// A Swift type that can be a trait's value.
public protocol TraitValueConvertible: Sendable, Equatable {
    /// The kind of trait a value of this type makes.
    static var traitKind: TraitKind { get }
    /// The value as the engine stores it.
    var traitValue: TraitValue { get }
    /// The Swift value of a stored value; nil when it is of another kind.
    init?(traitValue: TraitValue)
}

/// A Swift enum usable as an enum trait: its case names are the names scripts see.
public protocol TraitEnum: TraitValueConvertible, CaseIterable, RawRepresentable where RawValue == Int {
    /// The names scripts use for the cases, in case order. By default each case's own name,
    /// found by reflection (`String(describing:)`); an enum can list them instead, which costs
    /// nothing when its trait is first defined.
    static var caseNames: [String] { get }
}

extension TraitEnum {
    public static var caseNames: [String] { allCases.map { String(describing: $0) } }
    public static var traitKind: TraitKind { .enumeration(caseNames) }
    /// The case's index, as enum traits store it.
    @inlinable public var traitValue: TraitValue { .enumCase(rawValue) }
    /// The case at a stored index; nil for another kind of value.
    @inlinable public init?(traitValue: TraitValue) {
        guard case .enumCase(let i) = traitValue else { return nil }
        self.init(rawValue: i)
    }
}

extension Bool: TraitValueConvertible {
    public static var traitKind: TraitKind { .bool }
    @inlinable public var traitValue: TraitValue { .bool(self) }
    @inlinable public init?(traitValue: TraitValue) {
        guard case .bool(let b) = traitValue else { return nil }
        self = b
    }
}

extension Int: TraitValueConvertible {
    public static var traitKind: TraitKind { .integer }
    @inlinable public var traitValue: TraitValue { .integer(self) }
    @inlinable public init?(traitValue: TraitValue) {
        guard case .integer(let i) = traitValue else { return nil }
        self = i
    }
}

extension Double: TraitValueConvertible {
    public static var traitKind: TraitKind { .number }
    @inlinable public var traitValue: TraitValue { .number(self) }
    @inlinable public init?(traitValue: TraitValue) {
        guard case .number(let d) = traitValue else { return nil }
        self = d
    }
}

extension String: TraitValueConvertible {
    public static var traitKind: TraitKind { .string(optional: false) }
    @inlinable public var traitValue: TraitValue { .string(self) }
    @inlinable public init?(traitValue: TraitValue) {
        guard case .string(let s) = traitValue else { return nil }
        self = s
    }
}

extension Optional: TraitValueConvertible where Wrapped == String {
    public static var traitKind: TraitKind { .string(optional: true) }
    public var traitValue: TraitValue { map { .string($0) } ?? .none }
    public init?(traitValue: TraitValue) {
        switch traitValue {
        case .none: self = .none
        case .string(let s): self = s
        default: return nil
        }
    }
}

/// The typed way to define a trait in Swift, as UIKit's `UITraitDefinition`:
///
///     struct ContainedInSettingsTrait: TraitDefinition { static let defaultValue = false }
///     let tc = TraitCollection { $0[ContainedInSettingsTrait.self] = true }
///
/// The first use registers the trait under `name` (default: the type's name).
public protocol TraitDefinition {
    /// The Swift type of the trait's values.
    associatedtype Value: TraitValueConvertible
    /// The value every node has until something overrides it.
    static var defaultValue: Value { get }
    /// The name scripts and trees use (default: the type's name).
    static var name: String { get }
    /// The key JSON uses (default: the name).
    static var identifier: String { get }
    /// Whether a change redraws views whose colors depend on traits (default: false).
    static var affectsColorAppearance: Bool { get }
}

extension TraitDefinition {
    /// The type's name.
    public static var name: String { String(describing: Self.self) }
    /// The name.
    public static var identifier: String { name }
    /// False: most traits do not change how colors look.
    public static var affectsColorAppearance: Bool { false }

    /// The registered trait for this definition.
    ///
    /// When a script already defined a different trait under the same name (or identifier),
    /// the Swift definition is registered under its qualified type name instead, so a host app
    /// never crashes because of what a script did; the two are then distinct traits.
    public static var trait: Trait {
        if let cached = TypedTraitCache.lookup(Self.self) { return cached }
        let trait: Trait
        do {
            trait = try register(name: name, identifier: identifier)
        } catch {
            let qualified = String(reflecting: Self.self)
            do {
                trait = try register(name: qualified, identifier: qualified)
            } catch {
                // Only a full registry (TraitRegistry.capacity traits) gets here.
                fatalError("TraitDefinition \(Self.self): \(error)")
            }
        }
        TypedTraitCache.insert(trait, for: Self.self)
        return trait
    }

    /// The registered trait's dense id, which typed reads and writes index by: after the first
    /// use a table probe that retains nothing (`trait` hands out a reference, counted each time).
    @inlinable
    static var traitID: Int {
        let id = TypedTraitCache.id(of: Self.self)
        return id >= 0 ? id : trait.id
    }

    private static func register(name: String, identifier: String) throws(TraitError) -> Trait {
        try TraitRegistry.define(name: name, identifier: identifier, kind: Value.traitKind,
                                 defaultValue: defaultValue.traitValue, affectsColorAppearance: affectsColorAppearance)
    }
}
