/// Errors the engine reports instead of crashing. Each message names the object, the trait and
/// what was expected, so a script author can fix the call (DESIGN.md §3).
public enum TraitError: Error, Equatable, CustomStringConvertible {
    /// A value a trait does not take.
    case invalidValue(trait: String, value: String, expected: String)
    /// A value an environment key does not take.
    case invalidEnvironmentValue(key: String, value: String, expected: String)
    /// A trait name no definition has.
    case unknownTrait(String)
    /// A trait defined again, differently.
    case conflictingDefinition(name: String, reason: String)
    /// A trait definition that cannot be (a default of no kind, an empty name).
    case invalidDefinition(String)
    /// An override read that the node does not have.
    case noOverride(trait: String, node: String)
    /// Screens take system traits, not overrides.
    case screenHasNoOverrides
    /// A change that would make a node its own ancestor.
    case cycle(node: String, ancestor: String)
    /// A change the hierarchy cannot take (a window's view moved, a view in two places).
    case invalidHierarchy(String)
    /// Placing `node` under `parent` would make the trait tree deeper than `limit` levels.
    case tooDeep(node: String, parent: String, limit: Int)
    /// A callback started an update inside an update, `updates` deep, with too little native
    /// stack left for another (`StackRoom`).
    case nestedTooDeeply(updates: Int)
    /// A registration with no traits.
    case emptyTraitList
    /// What was still asking for another pass: traits that kept changing, nodes new in the
    /// last pass, nodes that kept asking for constraints, layout or display, `tk.async` work
    /// that kept queuing more.
    case updateDidNotSettle(traits: [String], added: [String] = [], constraints: [String] = [], layout: [String] = [],
                            display: [String] = [], async: Bool = false)
    /// JSON with a trait identifier no definition has.
    case unknownIdentifier(String)
    /// Text that is not the JSON expected.
    case malformedJSON(String)
    /// A dynamic color whose providers kept answering dynamic colors, `depth` of them in a row.
    case colorDidNotResolve(depth: Int)
    /// A tint set on `view` from inside `depth` nested `tintColorDidChange` calls.
    case tintDidNotSettle(view: String, depth: Int)
    /// A binding's lifecycle `method` of `node` started inside `depth` others (`dispatch`).
    case callbacksDidNotSettle(method: String, node: String, depth: Int)

    public var description: String {
        switch self {
        case .invalidValue(let trait, let value, let expected):
            "invalid value \(clipped(value, limit: 160)) for trait \(clipped(trait)) (expected \(expected))"
        case .invalidEnvironmentValue(let key, let value, let expected):
            "invalid value \(clipped(value, limit: 160)) for environment key '\(clipped(key))' (expected \(expected))"
        case .unknownTrait(let name):
            "unknown trait '\(clipped(name))'" + Self.unknownTraitHint(name)
        case .conflictingDefinition(let name, let reason):
            "trait '\(clipped(name))' is already defined differently (\(reason))"
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
        case .tooDeep(let node, let parent, let limit):
            "cannot add \(node) to \(parent): the hierarchy would be more than \(limit) levels deep "
                + "(the most TraitKit supports; flatten the chain)"
        case .nestedTooDeeply(let updates):
            "updates nested too deeply: a callback asked for an update inside \(updates) running updates, "
                + "and the native stack has no room for another (let the running update pick the change up "
                + "instead of calling updateTraitsIfNeeded or layoutIfNeeded from the callback)"
        case .emptyTraitList:
            "registerForTraitChanges needs at least one trait (got an empty list)"
        case .updateDidNotSettle(let traits, let added, let constraints, let layout, let display, let async):
            "update did not settle after \(Application.maxIterations) iterations ("
                + [traits.isEmpty ? nil : "traits still changing: " + traits.joined(separator: ", "),
                   added.isEmpty ? nil : "nodes new in the last pass: " + added.joined(separator: ", "),
                   constraints.isEmpty ? nil : "constraints still requested by " + constraints.joined(separator: ", "),
                   layout.isEmpty ? nil : "layout still requested by " + layout.joined(separator: ", "),
                   display.isEmpty ? nil : "display still requested by " + display.joined(separator: ", "),
                   async ? "tk.async work still queuing more work" : nil].compactMap { $0 }.joined(separator: "; ")
                + ")"
        case .unknownIdentifier(let identifier):
            "unknown trait identifier '\(clipped(identifier))' in JSON (define the trait first, or decode with skipUnknown)"
        case .colorDidNotResolve(let depth):
            "a dynamic color did not resolve: its provider answered a dynamic color \(depth) times in a row (a provider must end in a static color, e.g. tk.Color.hex(\"#RRGGBB\"))"
        case .tintDidNotSettle(let view, let depth):
            "tintColor of \(view) not set: tint changes nested \(depth) deep, each set from a tintColorDidChange "
                + "(a tint that never settles; set a tint only when it differs, or outside tintColorDidChange)"
        case .callbacksDidNotSettle(let method, let node, let depth):
            "\(method) of \(node) not called: lifecycle methods nested \(depth) deep, each started from inside "
                + "another (a method that calls what calls it, as a willMoveToParent that calls addChild, never ends)"
        case .malformedJSON(let message):
            "malformed JSON: \(message)"
        }
    }

    /// After an unknown trait's name: the defined trait nearest to it, or else how to define one.
    /// (Read when the message is made: a trait defined since the error counts.)
    private static func unknownTraitHint(_ name: String) -> String {
        let hint = didYouMean(name, in: TraitRegistry.all.map(\.name))
        return hint.isEmpty ? " (define it with tk.defineTrait first)" : hint
    }
}

/// `text` cut to `limit` bytes for an error message, with its full length: a script that passes
/// a megabyte string gets a message it can read, not the megabyte back. Control characters are
/// escaped (`printable`) within the limit, so the work and the message stay bounded by `limit`,
/// whatever the size of `text`.
public func clipped(_ text: String, limit: Int = 64) -> String {
    var kept = String.UnicodeScalarView()
    var bytes = 0
    for scalar in text.unicodeScalars {
        let written = shown(scalar)
        bytes += written.utf8.count
        if bytes > limit { return String(kept) + "… (\(text.utf8.count) bytes)" }
        kept.append(contentsOf: written.unicodeScalars)
    }
    return String(kept)
}

/// `names` joined for a message ("a, b, c"), each `clipped`: the first `limit` of them, then
/// how many there are in all. An enum trait a script defined with 200,000 cases gets a
/// message of a line, not megabytes; every system trait's cases (13 at most) are shown whole.
public func listed(_ names: some Collection<String>, limit: Int = 16) -> String {
    let shown = names.prefix(limit).map { clipped($0) }.joined(separator: ", ")
    return names.count > limit ? shown + ", … (\(names.count) in all)" : shown
}

/// `text` with its control characters written as escapes (`\n`, `\t`, `\u{1B}`): a name or
/// value from a script cannot split a one-line message or a tree's line, or send the terminal
/// escape sequences.
public func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { escaped.append(contentsOf: shown(scalar).unicodeScalars) }
    return String(escaped)
}

/// How a scalar is written in a message: itself, or its escape if it is a control character.
private func shown(_ scalar: Unicode.Scalar) -> String {
    isControl(scalar) ? scalar.escaped(asASCII: true) : String(scalar)
}

/// Unicode's control characters (general category Cc: U+0000–U+001F, U+007F–U+009F), tested
/// by range: a property lookup per scalar made a megabyte string cost seconds.
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}
