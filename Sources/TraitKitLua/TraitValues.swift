import CLua
import TraitKit

/// Converting trait values between Lua and the engine (R1 kinds).
enum TraitValues {
    /// The trait named by the value at `i`: a trait object or a trait name.
    static func checkTrait(_ L: LuaState, _ i: Int32, _ function: String) throws -> Trait {
        if let trait = LuaObject.peek(L, i) as? Trait { return trait }
        guard lua_type(L, i) == LUA_TSTRING else { throw argumentError(L, i, function, expected: "a trait or trait name") }
        return try namedTrait(L, i)
    }

    /// The trait called `name`, or an error saying it is unknown.
    static func trait(named name: String) throws -> Trait {
        guard let trait = TraitRegistry.trait(named: name) else { throw TraitError.unknownTrait(name) }
        return trait
    }

    /// A trait from a key at `i` that may be a trait object or a name; nil for other keys.
    static func traitKey(_ L: LuaState, _ i: Int32) throws -> Trait? {
        switch lua_type(L, i) {
        case LUA_TSTRING: try namedTrait(L, i)
        case LUA_TUSERDATA: LuaObject.peek(L, i) as? Trait
        default: nil
        }
    }

    /// `traitKey` for the object at `object`, whose string keys are traits or its methods (a
    /// collection, `traitOverrides`): an unknown name is the engine's error, which names the
    /// nearest trait, unless only a method is near (`tc:modifyng{}`).
    static func traitOrMethodKey(_ L: LuaState, _ i: Int32, methodsOf object: Int32) throws -> Trait? {
        do {
            return try traitKey(L, i)
        } catch TraitError.unknownTrait(let name) {
            let methodHint = didYouMean(name, in: LuaObject.memberNames(L, object))
            guard !methodHint.isEmpty, nearestName(to: name, in: TraitRegistry.all.map(\.name)) == nil else {
                throw TraitError.unknownTrait(name)
            }
            throw LuaError("unknown trait or method '\(clipped(name))'" + methodHint)
        }
    }

    /// The trait the name at `i` names. Each state keeps a table keyed by the Lua string
    /// itself, so a name read before costs one raw table lookup: no Swift string, no lock, no
    /// hashing in Swift. Traits are never undefined, so an unretained pointer stays valid.
    static func namedTrait(_ L: LuaState, _ i: Int32) throws -> Trait {
        let i = absolute(L, i)
        pushRef(L, LuaRuntime.of(L).traitNamesRef)
        lua_pushvalue(L, i)
        if lua_rawget(L, -2) == LUA_TLIGHTUSERDATA, let pointer = lua_touserdata(L, -1) {
            tk_pop(L, 2)
            return Unmanaged<Trait>.fromOpaque(pointer).takeUnretainedValue()
        }
        tk_pop(L, 2)
        // A name that is not UTF-8 names no trait (definitions refuse one): say it escaped.
        guard let name = TraitKitLua.text(L, i) else { throw TraitError.unknownTrait(escapedBytes(L, i)) }
        let found = try trait(named: name)
        pushRef(L, LuaRuntime.of(L).traitNamesRef)
        lua_pushvalue(L, i)
        lua_pushlightuserdata(L, Unmanaged.passUnretained(found).toOpaque())
        lua_rawset(L, -3)
        tk_pop(L, 1)
        return found
    }

    /// Pushes case `index` of an enum trait as its name, from a per-state table of the names
    /// as Lua strings (`pushCases`), so a read makes no Swift string.
    static func pushCaseName(_ L: LuaState, _ trait: Trait, _ index: Int) {
        pushCases(L, trait)
        if lua_rawgeti(L, -1, lua_Integer(index + 1)) == LUA_TNIL {
            tk_pop(L, 1)
            lua_pushinteger(L, lua_Integer(index))
        }
        tk_replace(L, -2)
    }

    /// The case of an enum trait the Lua string at `i` names, from the same table, so a set by
    /// name makes no Swift string either; an error naming the cases for any other string.
    static func enumCase(_ L: LuaState, _ i: Int32, of trait: Trait) throws -> TraitValue {
        let i = absolute(L, i)
        pushCases(L, trait)
        lua_pushvalue(L, i)
        lua_rawget(L, -2)
        var isInteger: Int32 = 0
        let index = tk_tointeger(L, -1, &isInteger)
        tk_pop(L, 2)
        if isInteger != 0 { return .enumCase(Int(index)) }
        // The table holds every case, so this is no case: the engine's error names them.
        throw TraitError.invalidValue(trait: trait.name, value: describeValue(L, i), expected: trait.kind.expectation)
    }

    /// Pushes the table of an enum trait's cases, made on first use and kept per state: case
    /// n + 1 → its name as a Lua string, and each name → n.
    private static func pushCases(_ L: LuaState, _ trait: Trait) {
        pushRef(L, LuaRuntime.of(L).caseNamesRef)
        if lua_rawgeti(L, -1, lua_Integer(trait.id + 1)) != LUA_TTABLE {
            tk_pop(L, 1)
            let cases = trait.cases ?? []
            lua_createtable(L, Int32(cases.count), Int32(cases.count))
            for (n, name) in cases.enumerated() {
                TraitKitLua.push(L, name)
                lua_pushvalue(L, -1)
                lua_rawseti(L, -3, lua_Integer(n + 1))
                lua_pushinteger(L, lua_Integer(n))
                lua_rawset(L, -3)
            }
            lua_pushvalue(L, -1)
            lua_rawseti(L, -3, lua_Integer(trait.id + 1))
        }
        tk_replace(L, -2)
    }

    /// A list of traits: a Lua sequence of traits or names, read into a set (what a
    /// registration keeps), with no array in between.
    static func checkTraitList(_ L: LuaState, _ i: Int32, _ function: String) throws -> TraitSet {
        // `node:registerForTraitChanges(Theme, f)` is the likely slip: UIKit's takes an array too.
        guard lua_type(L, i) == LUA_TTABLE else {
            throw argumentError(L, i, function, expected: "a list of traits, such as { Theme }")
        }
        var traits = TraitSet()
        let count = rawLength(L, i)
        for n in 0..<count {
            lua_rawgeti(L, i, lua_Integer(n + 1))
            defer { tk_pop(L, 1) }
            if let trait = try traitKey(L, -1) {
                traits.insert(trait.id)
            } else {
                throw LuaError("bad element #\(n + 1) in trait list for '\(function)' (expected a trait or trait name, got \(typeName(L, -1)))")
            }
        }
        return traits
    }

    /// The value at `i` for `trait`, or an error naming the trait and what it accepts. A Lua
    /// value of an object-kind trait is boxed with `hold`: pinned unless the caller anchors it.
    static func value(_ L: LuaState, _ i: Int32, for trait: Trait, hold: LuaValueBox.Hold = .pinned) throws -> TraitValue {
        let type = lua_type(L, i)
        let bad = { TraitError.invalidValue(trait: trait.name, value: describeValue(L, i), expected: trait.kind.expectation) }
        switch trait.kind {
        case .bool:
            guard type == LUA_TBOOLEAN else { throw bad() }
            return .bool(lua_toboolean(L, i) != 0)
        case .integer:
            var isInteger: Int32 = 0
            let n = tk_tointeger(L, i, &isInteger)
            guard type == LUA_TNUMBER, isInteger != 0 else { throw bad() }
            return .integer(Int(n))
        case .number:
            guard type == LUA_TNUMBER else { throw bad() }
            let d = tk_tonumber(L, i, nil)
            guard d.isFinite else { throw bad() }
            return .number(d)
        case .string(let optional):
            if type == LUA_TNIL, optional { return .none }
            guard type == LUA_TSTRING else { throw bad() }
            guard let s = TraitKitLua.text(L, i) else {
                throw TraitError.invalidValue(trait: trait.name, value: describeValue(L, i), expected: "UTF-8 text")
            }
            return .string(s)
        case .enumeration:
            guard type == LUA_TSTRING else { throw bad() }
            return try enumCase(L, i, of: trait)
        case .record:
            guard type == LUA_TTABLE else { throw bad() }
            return .record(try record(L, i, name: trait.name))
        case .object:
            guard type != LUA_TNIL else { throw bad() }
            return .object(TraitObject(LuaValueBox.make(L, i, hold)))
        }
    }

    static func record(_ L: LuaState, _ i: Int32, name: String) throws -> TraitRecord {
        var fields: [String: TraitRecord.Field] = [:]
        try forEachPair(L, i) {
            guard let key = TraitKitLua.text(L, -2) else {
                throw LuaError("record value for trait \(name) has a "
                    + (lua_type(L, -2) == LUA_TSTRING ? "key that is not UTF-8 text (\(describeValue(L, -2)))" : "non-string key"))
            }
            var isInteger: Int32 = 0
            switch lua_type(L, -1) {
            case LUA_TBOOLEAN: fields[key] = .bool(lua_toboolean(L, -1) != 0)
            case LUA_TNUMBER:
                let n = tk_tointeger(L, -1, &isInteger)
                let d = tk_tonumber(L, -1, nil)
                guard d.isFinite else {
                    throw LuaError("record field '\(clipped(key))' of trait \(clipped(name)) must be a finite number (got \(formatNumber(d)))")
                }
                fields[key] = isInteger != 0 ? .integer(Int(n)) : .number(d)
            case LUA_TSTRING:
                guard let s = TraitKitLua.text(L, -1) else {
                    throw LuaError("record field '\(clipped(key))' of trait \(clipped(name)) must be UTF-8 text (got \(describeValue(L, -1)))")
                }
                fields[key] = .string(s)
            default:
                throw LuaError("record field '\(clipped(key))' of trait \(clipped(name)) must be a bool, number or string (got \(typeName(L, -1)))")
            }
        }
        return TraitRecord(fields)
    }

    /// Pushes a value as scripts see it: enum case names, numbers, strings, tables for records.
    static func push(_ L: LuaState, _ value: TraitValue, of trait: Trait) {
        switch value {
        case .none: lua_pushnil(L)
        case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
        case .integer(let i): lua_pushinteger(L, lua_Integer(i))
        case .number(let d): lua_pushnumber(L, d)
        case .string(let s): TraitKitLua.push(L, s)
        case .enumCase(let index): pushCaseName(L, trait, index)
        case .record(let record):
            lua_createtable(L, 0, Int32(record.fields.count))
            for field in record.fields {
                switch field.value {
                case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
                case .integer(let i): lua_pushinteger(L, lua_Integer(i))
                case .number(let d): lua_pushnumber(L, d)
                case .string(let s): TraitKitLua.push(L, s)
                }
                rawSetField(L, -2, field.name)
            }
        case .object(let object):
            if let box = object.object as? LuaValueBox { box.push(L) } else { lua_pushnil(L) }
        }
    }

    /// Pushes a value that belongs to no trait (environment values): enum cases as integers.
    static func pushGeneric(_ L: LuaState, _ value: TraitValue) {
        switch value {
        case .enumCase(let i): lua_pushinteger(L, lua_Integer(i))
        default: push(L, value, of: SystemTraits.displayScale)
        }
    }

    /// The string at `i`, which is not UTF-8, as a message shows it: bytes above 0x7F as
    /// `\xNN`, control characters escaped, the first 64 bytes and then the length.
    static func escapedBytes(_ L: LuaState, _ i: Int32) -> String {
        var length = 0
        guard let chars = tk_tolstring(L, i, &length) else { return "" }
        var shown = ""
        for byte in UnsafeRawBufferPointer(start: chars, count: min(length, 64)) {
            shown += byte < 0x80 ? printable(String(UnicodeScalar(byte))) : "\\x" + String(byte, radix: 16, uppercase: true)
        }
        return length > 64 ? shown + "… (\(length) bytes)" : shown
    }

    /// A short rendering of the value at `i` for messages: strings quoted, others by type.
    static func describeValue(_ L: LuaState, _ i: Int32) -> String {
        switch lua_type(L, i) {
        case LUA_TSTRING: return "\"" + (TraitKitLua.text(L, i).map { clipped($0) } ?? escapedBytes(L, i)) + "\""
        case LUA_TNUMBER: return numberText(L, i)
        case LUA_TBOOLEAN: return lua_toboolean(L, i) != 0 ? "true" : "false"
        case LUA_TNIL: return "nil"
        default: return "(a \(typeName(L, i)))"
        }
    }
}
