import CLua
import TraitKit

/// R1 for environment keys: naming a key again the same way gives back the key already
/// defined, so elements that set a value for it keep it (reloading a script in the REPL
/// defines its keys again). A different default, bridge, or read/write shape is an error
/// naming what the key has. The new read/write functions replace the old ones, as a reloaded
/// script expects its edited functions to run.
extension DeclarativeModule {
    /// When a key is already called `name`: checks the table at 1 defines it the same way and
    /// pushes it (true). For a new name, pushes nothing (false).
    static func pushRedefinedKey(_ L: LuaState, name: String) throws -> Bool {
        pushRef(L, LuaRuntime.of(L).environmentKeysRef)
        guard rawGetField(L, -1, name) == LUA_TUSERDATA, let existing = LuaObject.peek(L, -1) as? EnvironmentKey else {
            tk_pop(L, 2)
            return false
        }
        tk_replace(L, -2)
        if let difference = try difference(L, from: existing) {
            throw LuaError("EnvironmentKey: '\(clipped(name))' is already defined differently (\(difference))")
        }
        if !existing.isDirectBridge {
            LuaObject.pushUserValue(L, -1)
            _ = rawGetField(L, 1, "read"); rawSetField(L, -2, "read")
            _ = rawGetField(L, 1, "write"); rawSetField(L, -2, "write")
            tk_pop(L, 1)
        }
        return true
    }

    /// What `key` has that the table at 1 does not define, or nil when they agree.
    private static func difference(_ L: LuaState, from key: EnvironmentKey) throws -> String? {
        let bridge = rawGetField(L, 1, "bridge") != LUA_TNIL
        defer { tk_pop(L, 1) }
        if let trait = key.bridgedTrait, key.isDirectBridge {
            guard bridge else { return "it bridges \(trait.name)" }
            guard try TraitValues.checkTrait(L, -1, "EnvironmentKey") === trait else { return "it bridges \(trait.name)" }
            defer { tk_pop(L, 1) }
            let value = rawGetField(L, 1, "default") == LUA_TNIL ? trait.defaultValue : try TraitValues.value(L, -1, for: trait)
            return value == key.defaultValue ? nil : "its default is \(trait.format(key.defaultValue))"
        }
        if bridge { return "it bridges no trait" }
        _ = rawGetField(L, 1, "default")
        defer { tk_pop(L, 1) }
        if genericValue(L, -1) != key.defaultValue { return "its default is \(EnvironmentKey.describe(key.defaultValue))" }
        return functionDifference(L, "read", has: key.read != nil) ?? functionDifference(L, "write", has: key.write != nil)
    }

    private static func functionDifference(_ L: LuaState, _ field: String, has: Bool) -> String? {
        defer { tk_pop(L, 1) }
        guard (rawGetField(L, 1, field) == LUA_TFUNCTION) != has else { return nil }
        return has ? "it has a \(field) function" : "it has no \(field) function"
    }
}
