import CLua
import TraitKit

/// `node.traitOverrides` (R5): set by assignment, read (an unset override is an error),
/// `contains`, `remove`; assigning nil removes.
enum OverridesModule {
    /// The type the proxies' members are registered under (for `LuaRuntime.members` and the
    /// API reference). A proxy is a userdata of kind `.overrides` that holds its node's
    /// userdata (`tk_push_new_overrides`), not an object of its own.
    final class Proxy {}

    static let members = Members(methods: [("contains", contains), ("remove", remove)])

    static func install(_ runtime: LuaRuntime) {
        runtime.register(members, for: Proxy.self)
    }

    /// Pushes the proxy of the node at `i`: made once, kept in the node userdata's user value
    /// `TK_OVERRIDES_SLOT`. The C `__index` of nodes (`tk_node_index`) answers
    /// `node.traitOverrides` from there and makes the proxy itself; this is the rest (a
    /// screen's error, a fetch through the debug library).
    static func push(_ L: LuaState, node i: Int32, _ node: TraitEnvironment) throws {
        guard node.traitOverridesIfAny != nil else { throw TraitError.screenHasNoOverrides }
        let i = absolute(L, i)
        if lua_getiuservalue(L, i, TK_OVERRIDES_SLOT) == LUA_TUSERDATA { return }
        tk_pop(L, 1)
        tk_push_new_overrides(L, i)
    }

    /// The node of the proxy at `i`; nil if the value is no proxy, an error if its node's
    /// finalizer ran (a proxy a finalizer brought back).
    static func node(_ L: LuaState, _ i: Int32) throws -> TraitEnvironment? {
        if let node = LuaObject.overridesNode(L, i) { return node }
        guard LuaObject.box(L, i)?.pointee.kind == LuaObject.Kind.overrides.rawValue else { return nil }
        throw LuaError("attempt to use the traitOverrides of a node whose finalizer ran")
    }

    private static func proxy(_ L: LuaState, _ function: String) throws -> (TraitEnvironment, TraitOverrides) {
        guard let node = try node(L, 1), let overrides = node.traitOverridesIfAny else {
            throw argumentError(L, 1, function, expected: "traitOverrides")
        }
        return (node, overrides)
    }

    /// Pushes the method the string key at 2 names (`contains`, `remove`) and returns true,
    /// or pushes nothing and returns false.
    private static func pushMethod(_ L: LuaState) -> Bool {
        guard lua_type(L, 2) == LUA_TSTRING, let box = LuaObject.box(L, 1) else { return false }
        pushRef(L, box.pointee.members)
        lua_pushvalue(L, 2)
        if lua_rawget(L, -2) != LUA_TNIL { return true }
        tk_pop(L, 2)
        return false
    }

    private static func trait(_ L: LuaState) throws -> Trait {
        guard let trait = try TraitValues.traitOrMethodKey(L, 2, methodsOf: 1) else {
            throw LuaError("bad key for traitOverrides (expected a trait or trait name, got \(typeName(L, 2)))")
        }
        return trait
    }

    /// `__index`: a method, else the override of the trait the key is or names.
    static let index: SwiftLuaFunction = { L in
        guarded(L) { L in
            let (node, overrides) = try proxy(L, "traitOverrides")
            if pushMethod(L) { return 1 }
            let trait = try trait(L)
            do {
                TraitValues.push(L, try overrides.value(for: trait), of: trait)
            } catch {
                throw TraitError.noOverride(trait: trait.name, node: node.debugName)
            }
            return 1
        }
    }

    /// `__newindex`: sets the override of the trait the key is or names; nil removes it.
    static let newIndex: SwiftLuaFunction = { L in
        guarded(L) { L in
            let (_, overrides) = try proxy(L, "traitOverrides")
            if pushMethod(L) {
                throw LuaError("cannot set '\(clipped(string(L, 2) ?? ""))' of TraitOverrides: it is a method")
            }
            let trait = try trait(L)
            if isNil(L, 3) {
                overrides.remove(trait)
            } else {
                try overrides.set(try TraitValues.value(L, 3, for: trait, hold: .anchored), for: trait)
            }
            anchor(L, proxy: 1, trait, value: 3)
            return 0
        }
    }

    /// Keeps an object-kind override's Lua value in the proxy's user value while it is set;
    /// the value it replaces stays until the next update has recomputed the collections.
    private static func anchor(_ L: LuaState, proxy: Int32, _ trait: Trait, value: Int32) {
        guard case .object = trait.kind else { return }
        ValueAnchors.set(L, value, in: proxy, slot: trait.id, retiring: true)
    }

    static let contains: SwiftLuaFunction = { L in
        guarded(L) { L in
            let (_, overrides) = try proxy(L, "contains")
            lua_pushboolean(L, overrides.contains(try TraitValues.checkTrait(L, 2, "contains")) ? 1 : 0)
            return 1
        }
    }

    static let remove: SwiftLuaFunction = { L in
        guarded(L) { L in
            let (_, overrides) = try proxy(L, "remove")
            let trait = try TraitValues.checkTrait(L, 2, "remove")
            overrides.remove(trait)
            lua_pushnil(L)
            anchor(L, proxy: 1, trait, value: -1)
            return 0
        }
    }
}
