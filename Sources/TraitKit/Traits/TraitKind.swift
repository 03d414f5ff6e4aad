/// The kinds of value a trait may hold (R1).
public enum TraitKind: Sendable, Equatable {
    /// `true` or `false`.
    case bool
    /// A whole number.
    case integer
    /// Any number.
    case number
    /// A string; `optional` kinds also accept `.none` (as `typesettingLanguage` does).
    case string(optional: Bool)
    /// A fixed set of named cases, stored as the case index.
    case enumeration([String])
    /// A table of named fields, each of the kind its default gives.
    case record
    /// Any value, compared by identity (a Lua table, a Swift object).
    case object

    /// The word used in messages and by `tk.defineTrait{ kind = ... }`.
    public var word: String {
        switch self {
        case .bool: "bool"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .enumeration: "enum"
        case .record: "record"
        case .object: "object"
        }
    }

    /// Kinds are equal when they are the same case; enum cases compare by their bytes, as
    /// names do (`ExactName`), so "é" and "e\u{301}" are two cases.
    public static func == (a: TraitKind, b: TraitKind) -> Bool {
        switch (a, b) {
        case (.enumeration(let x), .enumeration(let y)):
            x.map(ExactName.init) == y.map(ExactName.init)
        case (.string(let x), .string(let y)): x == y
        case (.bool, .bool), (.integer, .integer), (.number, .number), (.record, .record), (.object, .object): true
        default: false
        }
    }

    /// Whether `value` is a value of this kind.
    ///
    /// Numbers must be finite: NaN equals nothing, not even itself, so an override of NaN would
    /// count as a change on every write, and neither NaN nor infinity has a JSON form (R11).
    public func accepts(_ value: TraitValue) -> Bool {
        switch (self, value) {
        case (.bool, .bool), (.integer, .integer), (.string, .string), (.object, .object):
            return true
        case (.number, .number(let d)):
            return d.isFinite
        case (.record, .record(let r)):
            return r.isFinite
        case (.string(let optional), .none):
            return optional
        case (.object, .none):
            return true
        case (.enumeration(let cases), .enumCase(let index)):
            return cases.indices.contains(index)
        default:
            return false
        }
    }

    /// What a value of this kind looks like, for error messages.
    public var expectation: String {
        switch self {
        case .enumeration(let cases): "one of: " + listed(cases)
        case .string(optional: true): "a string or nil"
        case .integer: "an integer"
        case .number: "a finite number"
        case .record: "a record of finite numbers, bools and strings"
        case .object: "any value"
        default: "a " + word
        }
    }
}
