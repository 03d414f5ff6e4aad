import TraitKit

/// The reference of the Lua API: every name `APISurface` finds, with its kind, its type in
/// LuaLS notation, one line of meaning and the topic it is documented under.
///
/// `docs/lua-api.md` and `types/traitkit.d.lua` are both made from it (`traitkit stubs`), and
/// building it fails when the written entries and the binding's surface disagree, so neither
/// file can name a member the binding lacks or miss one it has.
public struct LuaReference: Sendable {
    /// Where a user looks for a name; the order of `docs/lua-api.md`.
    public enum Topic: String, Sendable, CaseIterable {
        /// Each a section of `docs/lua-api.md`.
        case traits, collections, hierarchy, overrides, updates, registrations, lifecycle, appearance
        /// Each a section of `docs/lua-api.md`.
        case declarative, introspection
    }

    /// One name with what the reference says of it.
    public struct Item: Sendable {
        /// As in ``APISurface/Entry/path``.
        public let path: String
        /// What the name is.
        public let kind: APISurface.Kind
        /// `(a: T, b?: U): R` for what is called (forms joined by ` or `), else the value's type.
        public let type: String
        /// One line of meaning.
        public let summary: String
        /// The section it belongs to.
        public let topic: Topic

        /// The class or table the name belongs to: `View` for `View:addSubview`, `tk.Color`
        /// for `tk.Color.hex`, `tk.defineTrait` for `tk.defineTrait{name}`.
        public var owner: String { String(path[..<nameRange.lowerBound].dropLast()) }
        /// The name within its owner.
        public var name: String { String(path[nameRange].filter { $0 != "}" }) }

        private var nameRange: Range<String.Index> {
            let cut = path.lastIndex(where: { $0 == "." || $0 == ":" || $0 == "{" })!
            return path.index(after: cut)..<path.endIndex
        }
    }

    /// The reference has no entry for these names of the surface, or entries for names the
    /// surface does not have.
    public struct Mismatch: Error, CustomStringConvertible {
        /// Names of the binding without an entry.
        public let undocumented: [String]
        /// Entries without a name in the binding (or written twice).
        public let unknown: [String]
        public var description: String {
            var lines: [String] = []
            if !undocumented.isEmpty { lines.append("not in the reference: " + undocumented.joined(separator: ", ")) }
            if !unknown.isEmpty { lines.append("in the reference but not in the binding: " + unknown.joined(separator: ", ")) }
            return lines.joined(separator: "\n")
        }
    }

    /// Every name, sorted by path.
    public let items: [Item]

    /// The reference of the binding as built: throws `Mismatch` unless every name of the
    /// surface has exactly one entry.
    public init() throws(Mismatch) {
        let surface = APISurface.entries()
        var entries: [String: (type: String, summary: String, topic: Topic)] = [:]
        var duplicates: [String] = []
        for (topic, list) in Self.written {
            for (path, type, summary) in list {
                if entries.updateValue((type, summary, topic), forKey: path) != nil { duplicates.append(path) }
            }
        }
        for (path, type, summary, topic) in Self.generatedEntries() { entries[path] = (type, summary, topic) }
        let undocumented = surface.map(\.path).filter { entries[$0] == nil }
        let unknown = Set(entries.keys).subtracting(surface.map(\.path)).sorted() + duplicates
        guard undocumented.isEmpty, unknown.isEmpty else { throw Mismatch(undocumented: undocumented, unknown: unknown) }
        items = surface.map {
            let entry = entries[$0.path]!
            return Item(path: $0.path, kind: $0.kind, type: entry.type, summary: entry.summary, topic: entry.topic)
        }
    }

    /// The system traits and the color palette, described from the engine's tables.
    static func generatedEntries() -> [(String, String, String, Topic)] {
        let traits = SystemTraits.all.map { trait in
            let values = trait.cases.map { "One of " + $0.joined(separator: ", ") } ?? "A " + trait.kind.word
            let color = trait.affectsColorAppearance ? "; affects color appearance" : ""
            return ("tk.traits." + trait.name, "Trait", "\(values); default \(trait.format(trait.defaultValue))\(color).", Topic.traits)
        }
        let colors = Color.systemColors.map { name, color in
            let summary = color.isDynamic ? "UIKit's `\(name)`: resolves by style, contrast and elevation."
                : "The fixed color `\(color)`."
            return ("tk.Color." + name, "Color", summary, Topic.appearance)
        }
        return traits + colors
    }

    /// The LuaLS alias of each enum system trait's values: `UserInterfaceStyle` is
    /// `"unspecified"|"light"|"dark"`.
    public static var traitValueAliases: [(name: String, cases: [String])] {
        SystemTraits.all.compactMap { trait in
            trait.cases.map { (trait.name.prefix(1).uppercased() + trait.name.dropFirst(), $0) }
        }
    }
}
