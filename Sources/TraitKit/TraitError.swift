/// Errors the engine reports instead of crashing. Each message names the object, the trait and
/// what was expected, so a script author can fix the call (DESIGN.md §3).
public enum TraitError: Error, Equatable, CustomStringConvertible {
    case invalidValue(trait: String, value: String, expected: String)
    case unknownTrait(String)
    case conflictingDefinition(name: String, reason: String)
    case invalidDefinition(String)
    case noOverride(trait: String, node: String)
    case screenHasNoOverrides
    case cycle(node: String, ancestor: String)
    case invalidHierarchy(String)
    case emptyTraitList
    case updateDidNotSettle(traits: [String])
    case unknownIdentifier(String)
    case malformedJSON(String)

    public var description: String {
        switch self {
        case .invalidValue(let trait, let value, let expected):
            "invalid value \(value) for trait \(trait) (expected \(expected))"
        case .unknownTrait(let name):
            "unknown trait '\(name)' (define it with tk.defineTrait first)"
        case .conflictingDefinition(let name, let reason):
            "trait '\(name)' is already defined differently (\(reason))"
        case .invalidDefinition(let message):
            message
        case .noOverride(let trait, let node):
            "no override for trait \(trait) on \(node)"
        case .screenHasNoOverrides:
            "a Screen has no traitOverrides (change its systemTraits with setSystemTraits)"
        case .cycle(let node, let ancestor):
            "cannot add \(ancestor) to \(node): a node cannot become its own ancestor"
        case .invalidHierarchy(let message):
            message
        case .emptyTraitList:
            "registerForTraitChanges needs at least one trait (got an empty list)"
        case .updateDidNotSettle(let traits):
            "trait update did not settle after 100 iterations (traits still changing: "
                + traits.joined(separator: ", ") + ")"
        case .unknownIdentifier(let identifier):
            "unknown trait identifier '\(identifier)' in JSON (define the trait first, or decode with skipUnknown)"
        case .malformedJSON(let message):
            "malformed JSON: \(message)"
        }
    }
}
