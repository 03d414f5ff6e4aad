import CLua
import TraitKit

/// `tk.defineTrait`, `tk.traits` and trait objects (R1, R2).
enum TraitModule {
    static let members = Members(getters: [
        ("name", { L in guarded(L) { L in push(L, try trait(L).name); return 1 } }),
        ("identifier", { L in guarded(L) { L in push(L, try trait(L).identifier); return 1 } }),
        ("kind", { L in guarded(L) { L in push(L, try trait(L).kind.word); return 1 } }),
        ("default", { L in
            guarded(L) { L in
                let t = try trait(L)
                TraitValues.push(L, t.defaultValue, of: t)
                return 1
            }
        }),
        ("affectsColorAppearance", { L in
            guarded(L) { L in lua_pushboolean(L, try trait(L).affectsColorAppearance ? 1 : 0); return 1 }
        }),
        ("cases", { L in
            guarded(L) { L in
                guard let cases = try trait(L).cases else { lua_pushnil(L); return 1 }
                pushStrings(L, cases)
                return 1
            }
        }),
    ])

    private static func trait(_ L: LuaState) throws -> Trait {
        try LuaObject.check(L, 1, Trait.self, "trait")
    }

    static func install(_ runtime: LuaRuntime, into module: Int32) {
        let L = runtime.L
        runtime.register(members, for: Trait.self)
        push(L, defineTrait); rawSetField(L, module, "defineTrait")
        push(L, definedTraits); rawSetField(L, module, "definedTraits")
        tk_newtable(L)
        for trait in SystemTraits.all {
            LuaObject.push(L, trait, .trait)
            rawSetField(L, -2, trait.name)
        }
        // A misspelled system trait is an error naming the nearest, not a nil that fails
        // later somewhere else; the table stays a plain table for `pairs` (§3).
        tk_newtable(L)
        push(L, missingSystemTrait); rawSetField(L, -2, "__index")
        push(L, assignSystemTrait); rawSetField(L, -2, "__newindex")
        lua_setmetatable(L, -2)
        rawSetField(L, module, "traits")
        // The semantic sets: a fresh list at every read, as UIKit hands out a fresh array, so a
        // script that changes the list it got changes nothing else (the module's metatable).
        tk_newtable(L)
        lua_pushvalue(L, module)
        tk_pushswift_with(L, semanticSet, 1)
        rawSetField(L, -2, "__index")
        lua_setmetatable(L, module)
    }

    /// `tk.traits`' `__index`, reached for a name it does not hold: an error that names the
    /// nearest system trait, or says that a custom trait's name is not there. A key that is
    /// not a string reads nil, as from a table (`ipairs(tk.traits)` ends at once).
    private static let missingSystemTrait: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard lua_type(L, 2) == LUA_TSTRING, let name = string(L, 2) else {
                lua_pushnil(L)
                return 1
            }
            if TraitRegistry.trait(named: name) != nil {
                throw LuaError("tk.traits holds the system traits; '\(clipped(name))' is a custom trait: "
                    + "use the trait tk.defineTrait returned, or its name")
            }
            let hint = didYouMean(name, in: SystemTraits.all.map(\.name))
            throw LuaError("unknown system trait '\(clipped(name))'"
                + (hint.isEmpty ? " (tk.traits holds the system traits; see tk.definedTraits())" : hint))
        }
    }

    /// `tk.traits`' `__newindex`: the system traits are fixed.
    private static let assignSystemTrait: SwiftLuaFunction = { L in
        guarded(L) { _ in
            throw LuaError("tk.traits is read-only: it holds the system traits (define a trait with tk.defineTrait)")
        }
    }

    /// `tk.systemTraitsAffectingColorAppearance`, `tk.systemTraitsAffectingImageLookup`.
    static let semanticSets = [
        "systemTraitsAffectingColorAppearance": SystemTraits.affectingColorAppearance,
        "systemTraitsAffectingImageLookup": SystemTraits.affectingImageLookup,
    ]

    /// The module's `__index`: the semantic sets; nil for any other name, as a table gives.
    /// Upvalue 2: the module, the only self it answers for.
    private static let semanticSet: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard lua_rawequal(L, 1, tk_upvalueindex(2)) != 0 else {
                throw argumentError(L, 1, "__index", expected: "the traitkit module")
            }
            guard let name = string(L, 2), let traits = semanticSets[name] else {
                lua_pushnil(L)
                return 1
            }
            pushTraits(L, traits)
            return 1
        }
    }

    /// `tk.definedTraits()`: every trait, system traits first, in definition order.
    static let definedTraits: SwiftLuaFunction = { L in
        pushTraits(L!, TraitRegistry.all)
        return 1
    }

    static func pushTraits(_ L: LuaState, _ traits: [Trait]) {
        lua_createtable(L, Int32(traits.count), 0)
        for (n, trait) in traits.enumerated() {
            LuaObject.push(L, trait, .trait)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
    }

    static func pushStrings(_ L: LuaState, _ strings: [String]) {
        lua_createtable(L, Int32(strings.count), 0)
        for (n, s) in strings.enumerated() {
            push(L, s)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
    }

    /// `tk.defineTrait{ name, identifier, values, default, kind, affectsColorAppearance }`.
    static let defineTrait: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkTable(L, 1, "defineTrait")
            try checkFieldNames(L, 1, "defineTrait", allowed: fields)
            guard rawGetField(L, 1, "name") == LUA_TSTRING, let name = text(L, -1), !name.isEmpty else {
                throw LuaError("defineTrait: 'name' must be a non-empty string"
                    + (lua_type(L, -1) == LUA_TSTRING ? " of UTF-8 text (got \(TraitValues.describeValue(L, -1)))" : ""))
            }
            tk_pop(L, 1)
            let identifier = try field(L, "identifier") { L in try optString(L, -1, "defineTrait") }
            let affects = try field(L, "affectsColorAppearance") { L -> Bool in
                guard isNil(L, -1) || lua_type(L, -1) == LUA_TBOOLEAN else {
                    throw LuaError("defineTrait: 'affectsColorAppearance' must be a boolean")
                }
                return lua_toboolean(L, -1) != 0
            }
            let kind = try inferKind(L, name: name)
            let defaultValue = try defaultValue(L, kind: kind, name: name)
            let trait = try TraitRegistry.define(name: name, identifier: identifier, kind: kind,
                                                 defaultValue: defaultValue, affectsColorAppearance: affects)
            let runtime = LuaRuntime.of(L)
            try runtime.traitSettings.defined(trait, in: runtime.application)
            LuaObject.push(L, trait, .trait)
            return 1
        }
    }

    /// The keys `tk.defineTrait{...}` takes.
    static let fields = ["affectsColorAppearance", "default", "identifier", "kind", "name", "values"]

    private static func field<T>(_ L: LuaState, _ key: String, _ read: (LuaState) throws -> T) throws -> T {
        _ = rawGetField(L, 1, key)
        defer { tk_pop(L, 1) }
        return try read(L)
    }

    private static func inferKind(_ L: LuaState, name: String) throws -> TraitKind {
        let cases: [String]? = try field(L, "values") { L in
            if isNil(L, -1) { return nil }
            guard lua_type(L, -1) == LUA_TTABLE else { throw LuaError("defineTrait: 'values' must be a list of strings") }
            return try (0..<rawLength(L, -1)).map { n in
                lua_rawgeti(L, -1, lua_Integer(n + 1))
                defer { tk_pop(L, 1) }
                guard let s = text(L, -1) else {
                    throw LuaError("defineTrait: 'values' must be a list of strings of UTF-8 text (got \(TraitValues.describeValue(L, -1)))")
                }
                return s
            }
        }
        let word: String? = try field(L, "kind") { L in try optString(L, -1, "defineTrait") }
        if let cases {
            guard !cases.isEmpty else { throw LuaError("defineTrait: trait '\(clipped(name))' needs at least one enum case in 'values'") }
            guard word == nil || word == "enum" else {
                throw LuaError("defineTrait: trait '\(clipped(name))' has 'values', so its kind is enum (got kind '\(clipped(word!))')")
            }
            return .enumeration(cases)
        }
        switch word {
        case "bool": return .bool
        case "integer": return .integer
        case "number": return .number
        case "string": return .string(optional: true)
        case "record": return .record
        case "object": return .object
        case "enum": throw LuaError("defineTrait: enum trait '\(clipped(name))' needs 'values'")
        case let other?:
            throw LuaError("defineTrait: unknown kind '\(clipped(other))' (expected bool, integer, number, string, enum, record or object)")
        case nil:
            return try field(L, "default") { L in
                var isInteger: Int32 = 0
                switch lua_type(L, -1) {
                case LUA_TBOOLEAN: return .bool
                case LUA_TNUMBER:
                    _ = tk_tointeger(L, -1, &isInteger)
                    return isInteger != 0 ? .integer : .number
                case LUA_TSTRING: return .string(optional: true)
                case LUA_TTABLE: return .record
                default:
                    throw LuaError("defineTrait: trait '\(clipped(name))' needs a 'default' (or a 'kind') to know its kind")
                }
            }
        }
    }

    private static func defaultValue(_ L: LuaState, kind: TraitKind, name: String) throws -> TraitValue {
        try field(L, "default") { L in
            if isNil(L, -1) {
                switch kind {
                case .enumeration: return .enumCase(0)
                case .bool: return .bool(false)
                case .integer: return .integer(0)
                case .number: return .number(0)
                case .string, .object: return TraitValue.none
                case .record: return .record(TraitRecord([:]))
                }
            }
            return try valueOfKind(L, kind: kind, name: name)
        }
    }

    private static func valueOfKind(_ L: LuaState, kind: TraitKind, name: String) throws -> TraitValue {
        var isInteger: Int32 = 0
        let type = lua_type(L, -1)
        switch kind {
        case .bool where type == LUA_TBOOLEAN: return .bool(lua_toboolean(L, -1) != 0)
        case .integer where type == LUA_TNUMBER:
            let n = tk_tointeger(L, -1, &isInteger)
            if isInteger != 0 { return .integer(Int(n)) }
        case .number where type == LUA_TNUMBER: return .number(tk_tonumber(L, -1, nil))
        case .string where type == LUA_TSTRING:
            guard let s = text(L, -1) else {
                throw LuaError("defineTrait: default \(TraitValues.describeValue(L, -1)) of trait '\(clipped(name))' is not UTF-8 text")
            }
            return .string(s)
        case .enumeration(let cases) where type == LUA_TSTRING:
            if let s = text(L, -1), let i = cases.firstIndex(where: { $0.utf8.elementsEqual(s.utf8) }) { return .enumCase(i) }
        case .record where type == LUA_TTABLE: return .record(try TraitValues.record(L, absolute(L, -1), name: name))
        case .object: return .object(TraitObject(LuaValueBox.make(L, -1, .pinned)))
        default: break
        }
        throw LuaError("defineTrait: default \(TraitValues.describeValue(L, -1)) of trait '\(clipped(name))' is not \(kind.expectation)")
    }
}
