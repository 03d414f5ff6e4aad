import CLua
import TraitKit

/// `pairs(tc)` and `pairs(node.traitOverrides)`: a trait name → value snapshot, iterated with
/// Lua's own `next`.
///
/// The snapshot is a plain table made when the loop starts, so changing overrides inside the
/// loop is safe (Lua's `next` refuses a table that gains keys mid-traversal), and `next` (not
/// a Swift iterator) is what raises on a bad key: no error ever crosses a Swift frame.
enum Pairs {
    /// Pushes the `__pairs` metamethod; `next` is taken from the base library once, here, so a
    /// script that replaces the global changes nothing.
    static func pushMetamethod(_ L: LuaState) {
        let source = "local next, snapshot = ... return function(o) return next, snapshot(o), nil end"
        _ = tk_loadbuffer(L, source, source.utf8.count, "=[traitkit pairs]", "t")
        _ = lua_getglobal(L, "next")
        push(L, snapshot)
        if tk_pcall(L, 2, 1, 0) != LUA_OK { tk_pop(L, 1); lua_pushnil(L) }
    }

    /// The names and values the object at 1 iterates over, as a new table.
    private static let snapshot: SwiftLuaFunction = { L in
        guarded(L) { L in
            switch LuaObject.peek(L, 1) {
            case let tc as TraitCollection:
                pushTable(L, tc.nonDefaultTraits) { tc[$0] }
            case let proxy as OverridesModule.Proxy:
                guard let overrides = proxy.overrides else { throw TraitError.screenHasNoOverrides }
                try pushTable(L, overrides.traits) { try overrides.value(for: $0) }
            default:
                throw LuaError("bad argument #1 to 'pairs' (expected a TraitCollection or traitOverrides, got \(typeName(L, 1)))")
            }
            return 1
        }
    }

    /// Pushes `{[trait.name] = value}` for `traits`, values as Lua sees them.
    static func pushTable(_ L: LuaState, _ traits: [Trait], value: (Trait) throws -> TraitValue) rethrows {
        lua_createtable(L, 0, Int32(traits.count))
        for trait in traits {
            TraitValues.push(L, try value(trait), of: trait)
            rawSetField(L, -2, trait.name)
        }
    }
}
