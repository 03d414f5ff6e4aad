/// R11: a collection encodes as `{identifier: value}` for the traits it sets (those that differ
/// from their default). Object-kind traits have no JSON form and are left out.
extension TraitCollection {
    /// The collection as a JSON object of its non-default traits, keyed by identifier.
    public func jsonValue() -> JSON {
        .object(nonDefaultTraits.compactMap { trait in
            trait.jsonValue(self[trait]).map { (trait.identifier, $0) }
        })
    }

    /// ``jsonValue()`` printed compactly: what `tc:toJSON()` returns.
    public func toJSON() -> String { jsonValue().serialized() }

    /// Decodes `{identifier: value}`; an unknown identifier is an error unless `skipUnknown`.
    public static func fromJSON(_ text: String, skipUnknown: Bool = false) throws(TraitError) -> TraitCollection {
        guard case .object(let pairs) = try JSON.parse(text) else {
            throw .malformedJSON("expected an object of {identifier: value}")
        }
        var traits = MutableTraits(values: [])
        for (identifier, json) in pairs {
            guard let trait = TraitRegistry.trait(identifier: identifier) else {
                if skipUnknown { continue }
                throw .unknownIdentifier(identifier)
            }
            try traits.set(try trait.value(fromJSON: json), for: trait)
        }
        return TraitCollection(values: traits.values)
    }
}

extension Trait {
    /// The JSON form of a value of this trait (nil for objects).
    public func jsonValue(_ value: TraitValue) -> JSON? {
        switch value {
        case .none: return JSON.null
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .enumCase: return .string(format(value))
        case .record(let r):
            return .object(r.fields.map { field in
                switch field.value {
                case .bool(let b): (field.name, .bool(b))
                case .integer(let i): (field.name, .integer(i))
                case .number(let d): (field.name, .number(d))
                case .string(let s): (field.name, .string(s))
                }
            })
        case .object: return nil
        }
    }

    /// The value of this trait that `json` encodes, or an error naming the trait.
    public func value(fromJSON json: JSON) throws(TraitError) -> TraitValue {
        // The message is made only for a value that is refused: it lists an enum's cases.
        func bad() -> TraitError { .invalidValue(trait: name, value: json.serialized(), expected: kind.expectation) }
        switch (kind, json) {
        case (.bool, .bool(let b)): return .bool(b)
        case (.integer, .integer(let i)): return .integer(i)
        case (.integer, .number(let d)):
            guard let i = Int(exactly: d) else { throw bad() }
            return .integer(i)
        case (.number, .number(let d)): return .number(d)
        case (.number, .integer(let i)): return .number(Double(i))
        case (.string, .string(let s)): return .string(s)
        case (.string(optional: true), .null): return .none
        case (.enumeration, .string(let s)): return try enumValue(named: s)
        case (.record, .object(let pairs)):
            var fields: [String: TraitRecord.Field] = [:]
            for (key, value) in pairs {
                switch value {
                case .bool(let b): fields[key] = .bool(b)
                case .integer(let i): fields[key] = .integer(i)
                case .number(let d): fields[key] = Int(exactly: d).map { .integer($0) } ?? .number(d)
                case .string(let s): fields[key] = .string(s)
                default: throw bad()
                }
            }
            return .record(TraitRecord(fields))
        default: throw bad()
        }
    }
}
