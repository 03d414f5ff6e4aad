import TraitKit

/// `--trait name=value` (DESIGN.md §4): a system trait of every Screen the script makes, or
/// a custom trait the script defines, applied as an override on every WindowScene.
///
/// A system trait is known before the script runs and is checked at once. A custom one exists
/// only once the script defines it: its value is read with the trait's kind then, and from
/// then on every scene made gets it, and the scenes already made too. A setting no definition
/// ever matched is an error once the script ran (`unmatched`), with the nearest trait name.
public final class TraitSettings {
    /// Applied to every Screen's system traits when it is made.
    public private(set) var screen: [(Trait, TraitValue)] = []
    /// Applied as an override on every WindowScene (custom traits the script defined).
    public private(set) var scene: [(Trait, TraitValue)] = []
    /// Custom settings waiting for the script to define their trait: (name, value text).
    public private(set) var pending: [(name: String, text: String)] = []

    /// No settings.
    public init() {}

    /// Parses `name=value` settings: system traits at once, others kept for their definition.
    /// A custom trait waits for the script's definition even when an earlier script in this
    /// process defined it (`--watch`, `--matrix`, the tests): the setting means the same in
    /// every run.
    public init(_ settings: [String]) throws(TraitError) {
        for setting in settings {
            let (name, text) = try Self.split(setting)
            if let trait = SystemTraits.all.first(where: { $0.name == name }) {
                screen.append((trait, try Self.value(text, for: trait, setting: setting)))
            } else {
                pending.append((name, text))
            }
        }
    }

    static func split(_ setting: String) throws(TraitError) -> (String, String) {
        guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
            throw .invalidDefinition("--trait \(setting): expected name=value, e.g. --trait userInterfaceStyle=dark")
        }
        return (String(setting[..<eq]), String(setting[setting.index(after: eq)...]))
    }

    /// `text` as a value of `trait`'s kind (enumeration case names, numbers, true/false, text).
    static func value(_ text: String, for trait: Trait, setting: String) throws(TraitError) -> TraitValue {
        let value: TraitValue
        switch trait.kind {
        case .enumeration: value = (try? trait.enumValue(named: text)) ?? .none
        case .number: value = Double(text).map { .number($0) } ?? .none
        case .integer: value = Int(text).map { .integer($0) } ?? .none
        case .bool: value = text == "true" ? .bool(true) : text == "false" ? .bool(false) : .none
        case .string: value = .string(text)
        default:
            throw .invalidDefinition("--trait \(setting): \(trait.name) is a \(trait.kind) trait, which --trait cannot set")
        }
        do { try trait.validate(value) } catch {
            throw .invalidDefinition("--trait \(setting): expected \(trait.kind.expectation)")
        }
        return value
    }

    /// The script defined `trait`: a pending setting of that name becomes a scene setting,
    /// and goes onto the scenes of `application` at once.
    func defined(_ trait: Trait, in application: Application) throws(TraitError) {
        guard let i = pending.firstIndex(where: { $0.name == trait.name }) else { return }
        let (name, text) = pending.remove(at: i)
        let value = try Self.value(text, for: trait, setting: "\(name)=\(text)")
        scene.append((trait, value))
        for screen in application.screens {
            for windowScene in screen.scenes { try windowScene.traitOverrides.set(value, for: trait) }
        }
    }

    /// Puts the scene settings on a scene just made.
    func apply(to scene: WindowScene) throws(TraitError) {
        for (trait, value) in self.scene { try scene.traitOverrides.set(value, for: trait) }
    }

    /// The error for settings no trait matched, naming the nearest trait; nil when all matched.
    public var unmatched: String? {
        guard let (name, text) = pending.first else { return nil }
        let hint = didYouMean(name, in: TraitRegistry.all.map(\.name))
        return "--trait \(name)=\(text): unknown trait '\(name)'\(hint) (--trait sets a system trait such as "
            + "userInterfaceStyle, or a custom trait the script defines)"
    }
}
