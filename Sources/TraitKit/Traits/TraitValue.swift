#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The value a trait holds in a collection.
///
/// One enum for every trait kind of R1 keeps a collection a flat array of values indexed by
/// trait id: no per-read boxing, no dictionary. Enum cases are stored as their index.
public enum TraitValue: Sendable, Hashable {
    /// The absence of a value (the default of `typesettingLanguage`).
    case none
    /// A `bool` trait's value.
    case bool(Bool)
    /// An `integer` trait's value.
    case integer(Int)
    /// A `number` trait's value.
    case number(Double)
    /// A `string` trait's value.
    case string(String)
    /// An enum case, stored as its index in the trait's case list.
    case enumCase(Int)
    /// A flat record of scalar fields, compared by value.
    case record(TraitRecord)
    /// Any object, compared by identity.
    case object(TraitObject)
}

extension TraitValue {
    /// Whether the values at `a` and `b` are equal, compared where they are: first by their
    /// bytes (the same bytes are the same case and the same payload, so equal values; unused
    /// payload bytes may differ between equal values, which only sends them to `==`), then by
    /// value.
    @inline(__always)
    static func equalInPlace(_ a: UnsafePointer<TraitValue>, _ b: UnsafePointer<TraitValue>) -> Bool {
        sameBytes(UnsafeRawPointer(a), UnsafeRawPointer(b)) || a.pointee == b.pointee
    }

    /// `memcmp` of two values, inline: an update compares every value of the collections it
    /// visits, and the call into libc cost more than the compare. A value is two words and a
    /// tag byte (the size is a constant: the other branch folds away).
    @inline(__always)
    private static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        guard MemoryLayout<TraitValue>.size == 17 else { return memcmp(a, b, MemoryLayout<TraitValue>.size) == 0 }
        return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
            && a.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            && a.load(fromByteOffset: 16, as: UInt8.self) == b.load(fromByteOffset: 16, as: UInt8.self)
    }

    /// Equality with the scalar cases first and inlinable, so comparing a read value costs a
    /// tag check and a compare, with no call (the synthesized `==` is an outlined function).
    /// Strings compare by their UTF-8 bytes, as Lua's `==` and UIKit's `isEqualToString:` do,
    /// not by Swift's canonical equivalence: `é` and `e` with a combining accent are two
    /// values, and setting one after the other is a change (R3: equal when they read the same).
    @inlinable
    public static func == (a: TraitValue, b: TraitValue) -> Bool {
        switch (a, b) {
        case (.enumCase(let x), .enumCase(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.none, .none): true
        case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)
        case (.record(let x), .record(let y)): x == y
        case (.object(let x), .object(let y)): x == y
        default: false
        }
    }
}

/// A flat record value: named scalar fields, kept sorted by name so equal records compare equal.
public struct TraitRecord: Sendable, Hashable {
    /// A field's value: records hold scalars only.
    public enum Field: Sendable, Hashable {
        /// The scalar kinds a field may have.
        case bool(Bool), integer(Int), number(Double), string(String)
    }
    /// The fields, sorted by name.
    public private(set) var fields: [(name: String, value: Field)]

    /// A record of `fields`.
    public init(_ fields: [String: Field]) {
        self.fields = fields.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// The field named `name`, or nil.
    public subscript(name: String) -> Field? {
        fields.first { $0.name == name }?.value
    }

    /// Whether every number field is finite (see `TraitKind.accepts`).
    public var isFinite: Bool {
        fields.allSatisfy { if case .number(let d) = $0.value { d.isFinite } else { true } }
    }

    public static func == (a: TraitRecord, b: TraitRecord) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension TraitRecord.Field {
    /// Numbers compare by value whatever their representation, as in Lua (`1 == 1.0`): a
    /// record written as `{top = 1}` and read back from JSON, or rewritten as `{top = 1.0}`,
    /// is the same record, and writing it again is not a change.
    public static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): x == y
        case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)  // by bytes, as TraitValue's
        case (.integer(let x), .integer(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): Int(exactly: y) == x
        default: false
        }
    }

    /// Equal numbers hash alike: both by their `Double` value.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .bool(let b): hasher.combine(0); hasher.combine(b)
        case .string(let s): hasher.combine(1); hasher.combine(s)
        case .integer(let i): hasher.combine(2); hasher.combine(Double(i))
        case .number(let d): hasher.combine(2); hasher.combine(d)
        }
    }
}

/// An object stored as a trait value, compared by identity (R1 "object" kind).
///
/// The engine never looks inside; bindings wrap their own values (a Lua value, say) in it.
public struct TraitObject: Sendable, Hashable {
    /// The wrapped object, compared by identity.
    public let object: any AnyObject & Sendable

    /// Wraps `object`.
    public init(_ object: any AnyObject & Sendable) { self.object = object }

    public static func == (a: TraitObject, b: TraitObject) -> Bool { a.object === b.object }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}

extension TraitRecord.Field {
    /// `value` if it is of this field's kind, or nil. Integers and other numbers are one kind
    /// here, as both are Lua numbers (a default written `{ top = 0 }` takes `1.5`).
    func fitting(_ value: Self) -> Self? {
        switch (self, value) {
        case (.bool, .bool), (.string, .string), (.integer, .integer), (.number, .number),
             (.integer, .number), (.number, .integer): value
        default: nil
        }
    }

    /// The kind in words, for messages.
    var kindWord: String {
        switch self {
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        }
    }
}
