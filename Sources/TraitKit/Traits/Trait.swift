/// A trait: a key with a default value and a value kind (R1).
///
/// Traits are immutable and live for the whole process, so a `Trait` is a class compared by
/// identity. Its `id` is dense (definition order, system traits first) and indexes the value
/// array of every `TraitCollection`: a read is one bounds check and one load.
public final class Trait: Sendable, Hashable, CustomStringConvertible {
    /// Dense index, in definition order.
    public let id: Int
    /// The name used in printing and in scripts (system traits: the property name).
    public let name: String
    /// Reverse-DNS identifier that makes the trait encodable (R11); defaults to `name`.
    public let identifier: String
    /// What values the trait takes.
    public let kind: TraitKind
    /// The value every node has until something overrides it.
    public let defaultValue: TraitValue
    /// The default value at a fixed address, for collections' read addressor (traits live for
    /// the whole process, so this is never freed).
    @usableFromInline nonisolated(unsafe) let defaultSlot: UnsafeMutablePointer<TraitValue>
    /// Whether a change of this trait can change how colors resolve (R9).
    public let affectsColorAppearance: Bool

    init(id: Int, name: String, identifier: String, kind: TraitKind, defaultValue: TraitValue,
         affectsColorAppearance: Bool) {
        self.id = id
        self.name = name
        self.identifier = identifier
        self.kind = kind
        self.defaultValue = defaultValue
        defaultSlot = .allocate(capacity: 1)
        defaultSlot.initialize(to: defaultValue)
        self.affectsColorAppearance = affectsColorAppearance
    }

    /// The enum case names, or nil for other kinds.
    public var cases: [String]? {
        if case .enumeration(let cases) = kind { return cases }
        return nil
    }

    /// Checks that `value` fits this trait, with a message naming the trait and what it accepts.
    public func validate(_ value: TraitValue) throws(TraitError) {
        guard kind.accepts(value) else {
            throw .invalidValue(trait: name, value: format(value), expected: kind.expectation)
        }
    }

    /// `value` checked as `validate` does and, for a record trait, given its default's shape:
    /// every field must be one the default declares, of that field's kind (a number field
    /// takes an integer too), and a field left out takes the default's value, so records of a
    /// trait always have the same fields (`{ top = 1 }` for insets means the default's other
    /// three). A record trait whose default has no fields declares no shape.
    public func conformed(_ value: TraitValue) throws(TraitError) -> TraitValue {
        try validate(value)
        guard case .record(let record) = value, case .record(let shape) = defaultValue, !shape.fields.isEmpty else {
            return value
        }
        var fields: [String: TraitRecord.Field] = [:]
        for (field, kind) in shape.fields { fields[field] = kind }
        for (field, given) in record.fields {
            guard let declared = shape[field] else {
                throw .invalidValue(trait: name, value: format(value),
                                    expected: "a record with the fields of its default \(clipped(format(defaultValue))), not '\(clipped(field))'")
            }
            guard let fitted = declared.fitting(given) else {
                throw .invalidValue(trait: name, value: format(value),
                                    expected: "field '\(clipped(field))' to be \(declared.kindWord) as in its default \(clipped(format(defaultValue)))")
            }
            fields[field] = fitted
        }
        return .record(TraitRecord(fields))
    }

    /// The value of enum case `name` (compared by bytes, as Lua compares strings), or an error
    /// naming the accepted cases.
    public func enumValue(named caseName: String) throws(TraitError) -> TraitValue {
        guard let cases, let index = cases.firstIndex(where: { $0.utf8.elementsEqual(caseName.utf8) }) else {
            throw .invalidValue(trait: name, value: "\"\(clipped(caseName))\"", expected: kind.expectation)
        }
        return .enumCase(index)
    }

    /// A value as scripts see it: enum case names, numbers as `%.14g`, strings unquoted.
    public func format(_ value: TraitValue) -> String {
        switch value {
        case .none: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d): return formatNumber(d)
        case .string(let s): return s
        case .enumCase(let i):
            if let cases, cases.indices.contains(i) { return cases[i] }
            return String(i)
        case .record(let r):
            return "{" + r.fields.map { "\($0.name) = \(formatField($0.value))" }.joined(separator: ", ") + "}"
        case .object(let o):
            // A binding's box says how its language shows the value (`table: 0x...`).
            if let described = o.object as? CustomStringConvertible { return described.description }
            return "object(\(ObjectIdentifier(o.object)))"
        }
    }

    public var description: String { name }

    public static func == (a: Trait, b: Trait) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Formats a number the way Lua's `%.14g` does, so Swift and scripts print the same text.
public func formatNumber(_ d: Double) -> String {
    var s = String(format14g: d)
    if s == "-0" { s = "0" }
    return s
}

private func formatField(_ f: TraitRecord.Field) -> String {
    switch f {
    case .bool(let b): b ? "true" : "false"
    case .integer(let i): String(i)
    case .number(let d): formatNumber(d)
    case .string(let s): "\"\(s)\""
    }
}

extension String {
    /// `%.14g` without Foundation's `String(format:)`.
    init(format14g d: Double) {
        var buffer = [CChar](repeating: 0, count: 40)
        _ = withVaList([d]) { vsnprintf(&buffer, 40, "%.14g", $0) }
        self = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Trait {
    /// The definition in one line, as the REPL shows a trait object:
    /// `trait Theme: enum (standard, pastel, bold), default standard, affects color appearance`.
    public var definitionDescription: String {
        var text = "trait \(name): "
        if let cases { text += "enum (" + cases.joined(separator: ", ") + ")" } else { text += kind.word }
        text += ", default " + format(defaultValue)
        if identifier != name { text += ", identifier \(identifier)" }
        if affectsColorAppearance { text += ", affects color appearance" }
        return text
    }
}
