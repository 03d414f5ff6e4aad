import CLua
import TraitKit

/// `tk.EnvironmentKey` (R10): keys a script defines, bridged to a trait or read and written
/// through its functions, and the values elements read from the environment.
extension DeclarativeModule {
    static func registerKey(_ L: LuaState, _ key: EnvironmentKey) {
        pushRef(L, LuaRuntime.of(L).environmentKeysRef)
        LuaObject.push(L, key, .environmentKey)
        rawSetField(L, -2, key.name)
        tk_pop(L, 1)
    }

    /// The key named or given at `i`.
    static func checkKey(_ L: LuaState, _ i: Int32, _ function: String) throws -> EnvironmentKey {
        if let key = LuaObject.peek(L, i) as? EnvironmentKey { return key }
        guard let name = text(L, i) else { throw textError(L, i, function, expected: "an environment key or key name") }
        pushRef(L, LuaRuntime.of(L).environmentKeysRef)
        defer { tk_pop(L, 2) }
        guard rawGetField(L, -1, name) == LUA_TUSERDATA, let key = LuaObject.peek(L, -1) as? EnvironmentKey else {
            throw LuaError("unknown environment key '\(clipped(name))' (define it with tk.EnvironmentKey first)")
        }
        return key
    }

    /// `key.name`, `key.default`, `key.bridge` (the trait it bridges one to one, or a built-in
    /// key's trait; nil otherwise).
    static let keyMembers = Members(getters: [
        ("name", { L in
            guarded(L) { L in push(L, try LuaObject.check(L, 1, EnvironmentKey.self, "name").name); return 1 }
        }),
        ("default", { L in
            guarded(L) { L in
                let key = try LuaObject.check(L, 1, EnvironmentKey.self, "default")
                pushValue(L, key.defaultValue, for: key)
                return 1
            }
        }),
        ("bridge", { L in
            guarded(L) { L in
                let key = try LuaObject.check(L, 1, EnvironmentKey.self, "bridge")
                if let trait = key.bridgedTrait { LuaObject.push(L, trait, .trait) } else { lua_pushnil(L) }
                return 1
            }
        }),
    ])

    /// The keys `tk.EnvironmentKey{...}` takes.
    static let keyFields = ["name", "default", "bridge", "read", "write"]

    /// The fields of a key's table: known names, functions where functions go, a bridge or a
    /// read/write pair but not both; and a name no built-in key has.
    private static func checkKeyFields(_ L: LuaState) throws -> String {
        try checkFieldNames(L, 1, "EnvironmentKey", allowed: keyFields)
        guard rawGetField(L, 1, "name") == LUA_TSTRING, let name = text(L, -1), !name.isEmpty else {
            throw LuaError("EnvironmentKey: 'name' must be a non-empty string"
                + (lua_type(L, -1) == LUA_TSTRING ? " of UTF-8 text (got \(TraitValues.describeValue(L, -1)))" : ""))
        }
        tk_pop(L, 1)
        if let builtIn = EnvironmentKey.builtIn.first(where: { $0.name == name }), let trait = builtIn.bridgedTrait {
            throw LuaError("EnvironmentKey: '\(clipped(name))' is a built-in key (it bridges \(trait.name)); choose another name")
        }
        let bridged = rawGetField(L, 1, "bridge") != LUA_TNIL
        tk_pop(L, 1)
        let read = try functionField(L, "read"), write = try functionField(L, "write")
        if bridged && (read || write) {
            throw LuaError("EnvironmentKey: give either 'bridge' (one trait) or 'read'/'write' functions, not both")
        }
        return name
    }

    /// Whether the key's table has a function under `field`; anything else there is an error.
    private static func functionField(_ L: LuaState, _ field: String) throws -> Bool {
        defer { tk_pop(L, 1) }
        switch rawGetField(L, 1, field) {
        case LUA_TNIL: return false
        case LUA_TFUNCTION: return true
        default: throw LuaError("EnvironmentKey: '\(field)' must be a function (got \(typeName(L, -1)))")
        }
    }

    /// `tk.EnvironmentKey{ name, default, bridge = trait }` or `{ name, default, read = fn, write = fn }`.
    static let makeKey: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkTable(L, 1, "EnvironmentKey")
            let name = try checkKeyFields(L)
            if try pushRedefinedKey(L, name: name) { return 1 }
            let runtime = LuaRuntime.of(L)
            let key: EnvironmentKey
            if rawGetField(L, 1, "bridge") != LUA_TNIL {
                let trait = try TraitValues.checkTrait(L, -1, "EnvironmentKey")
                tk_pop(L, 1)
                _ = rawGetField(L, 1, "default")
                let value = isNil(L, -1) ? trait.defaultValue : try TraitValues.value(L, -1, for: trait)
                tk_pop(L, 1)
                key = EnvironmentKey(name: name, bridge: trait, defaultValue: value)
            } else {
                tk_pop(L, 1)
                _ = rawGetField(L, 1, "default")
                let value = genericValue(L, -1)
                tk_pop(L, 1)
                let hasRead = rawGetField(L, 1, "read") == LUA_TFUNCTION
                let hasWrite = rawGetField(L, 1, "write") == LUA_TFUNCTION
                tk_pop(L, 2)
                let slot = Slot()
                key = EnvironmentKey(
                    name: name, defaultValue: value,
                    read: hasRead ? { [link = runtime.link] tc in try link.runtime?.callKeyRead(slot, tc) ?? value } : nil,
                    write: hasWrite ? { [link = runtime.link] traits, v in try link.runtime?.callKeyWrite(slot, &traits, v) } : nil)
                slot.object = key
            }
            LuaObject.push(L, key, .environmentKey)
            LuaObject.pushUserValue(L, -1)
            _ = rawGetField(L, 1, "read"); rawSetField(L, -2, "read")
            _ = rawGetField(L, 1, "write"); rawSetField(L, -2, "write")
            tk_pop(L, 1)
            registerKey(L, key)
            return 1
        }
    }

    /// Lets a closure made before its object find that object (and so its userdata).
    final class Slot: @unchecked Sendable {
        weak var object: AnyObject?
    }

    /// A Lua value as an environment value: scalars as such, anything else by identity.
    static func genericValue(_ L: LuaState, _ i: Int32) -> TraitValue {
        var isInteger: Int32 = 0
        switch lua_type(L, i) {
        case LUA_TNONE, LUA_TNIL: return .none
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, i) != 0)
        case LUA_TNUMBER:
            let n = tk_tointeger(L, i, &isInteger)
            return isInteger != 0 ? .integer(Int(n)) : .number(tk_tonumber(L, i, nil))
        case LUA_TSTRING:
            // Text as text; other bytes kept as the Lua value itself, so they read back the same.
            if let s = text(L, i) { return .string(s) }
            return .object(TraitObject(LuaValueBox.make(L, i, .pinned)))
        default: return .object(TraitObject(LuaValueBox.make(L, i, .pinned)))
        }
    }

    /// The value at `i` for `key`: converted by its trait when it bridges one.
    static func value(_ L: LuaState, _ i: Int32, for key: EnvironmentKey) throws -> TraitValue {
        if key.isDirectBridge, let trait = key.bridgedTrait { return try TraitValues.value(L, i, for: trait) }
        let value = genericValue(L, i)
        try key.validate(value)
        return value
    }

    static func pushValue(_ L: LuaState, _ value: TraitValue, for key: EnvironmentKey) {
        if key.isDirectBridge, let trait = key.bridgedTrait {
            TraitValues.push(L, value, of: trait)
        } else {
            TraitValues.pushGeneric(L, value)
        }
    }

    /// `env.key` inside a body.
    static func indexEnvironment(_ L: LuaState) throws -> Int32 {
        let reader = try LuaObject.check(L, 1, EnvironmentReader.self, "environment")
        let key = try checkKey(L, 2, "environment")
        pushValue(L, try reader[key], for: key)
        return 1
    }
}

extension LuaRuntime {
    func callKeyRead(_ slot: DeclarativeModule.Slot, _ tc: TraitCollection) throws -> TraitValue {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard let key = slot.object as? EnvironmentKey, LuaObject.pushExisting(L, key),
              tk_getuservalue(L, -1) == LUA_TTABLE, rawGetField(L, -1, "read") == LUA_TFUNCTION else {
            return .none
        }
        LuaObject.push(L, tc, .collection)
        try protectedCall(nargs: 1, nresults: 1)
        return DeclarativeModule.genericValue(L, -1)
    }

    func callKeyWrite(_ slot: DeclarativeModule.Slot, _ traits: inout MutableTraits, _ value: TraitValue) throws {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard let key = slot.object as? EnvironmentKey, LuaObject.pushExisting(L, key),
              tk_getuservalue(L, -1) == LUA_TTABLE, rawGetField(L, -1, "write") == LUA_TFUNCTION else { return }
        let builder = CollectionModule.Builder(TraitCollection(traits), hold: .pinned)
        LuaObject.push(L, builder, .mutableTraits)
        DeclarativeModule.pushValue(L, value, for: key)
        try protectedCall(nargs: 2)
        traits = builder.traits
    }
}
