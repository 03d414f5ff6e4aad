import CLua
import TraitKit

/// Keeps a node's userdata alive exactly as long as the engine keeps the node: the userdata is
/// a key of its structural owner's user value table, so Lua's collector traces the
/// same ownership graph the engine has. A detached subtree nobody references is garbage as a
/// whole, self-capturing handlers included; a view in a window lives while the window does.
///
/// It is also the node's `NodeBinding`: the engine calls it for every lifecycle callback, and
/// it runs the scripted method (per-instance first, then the Lua class chain) if there is one.
final class NodeAnchor: NodeBinding {
    /// The runtime while its state is open (the engine may keep the node longer).
    private let link: RuntimeLink

    init(runtime: LuaRuntime) { link = runtime.link }

    /// Called when a node gets its userdata (at index `i`). One anchor serves every node of a
    /// runtime: it keeps nothing of a node's own, and an object per node was one more
    /// allocation for every view a script makes.
    static func adopt(_ L: LuaState, _ i: Int32, _ node: TraitEnvironment, _ runtime: LuaRuntime) {
        node.binding = runtime.nodeAnchor
        anchor(L, absolute(L, i), node, runtime)
    }

    func ownerDidChange(_ node: TraitEnvironment) {
        guard let runtime = link.runtime else { return }
        let L = runtime.L
        guard LuaObject.pushArgument(L, node) || LuaObject.pushExisting(L, node) else { return }
        Self.anchor(L, absolute(L, -1), node, runtime)
        tk_pop(L, 1)
    }

    /// The node userdata's user value that holds its owner's userdata (`true` when the
    /// application owns it): inline in the userdata, so owning a node costs it no table.
    static let ownerSlot: Int32 = 4

    /// Moves the userdata at `ud` from its previous owner's user value table to its current
    /// owner's.
    static func anchor(_ L: LuaState, _ ud: Int32, _ node: TraitEnvironment, _ runtime: LuaRuntime) {
        // Leave the previous owner.
        switch lua_getiuservalue(L, ud, ownerSlot) {
        case LUA_TUSERDATA:
            setOwned(L, ownerAt: -1, ud: ud, present: false)
        case LUA_TBOOLEAN:
            pushRef(L, runtime.anchoredRef)
            lua_pushvalue(L, ud)
            lua_pushnil(L)
            lua_rawset(L, -3)
            tk_pop(L, 1)
        default:
            break
        }
        tk_pop(L, 1)
        // Join the new one.
        switch node.owner {
        case let owner as TraitEnvironment:
            if !LuaObject.pushArgument(L, owner) { LuaObject.push(L, owner, .node) }
            setOwned(L, ownerAt: -1, ud: ud, present: true)
        case is Application:
            pushRef(L, runtime.anchoredRef)
            lua_pushvalue(L, ud)
            lua_pushboolean(L, 1)
            lua_rawset(L, -3)
            tk_pop(L, 1)
            lua_pushboolean(L, 1)
        default:
            lua_pushnil(L)
        }
        _ = lua_setiuservalue(L, ud, ownerSlot)
    }

    /// Adds (or removes) the userdata at `ud` as a key of the user value table of the owner
    /// userdata on top. The table itself is the set: its other keys are light userdata
    /// (`UVKey`), which no full userdata equals, and a set of its own was one more table and
    /// one more lookup for every move.
    private static func setOwned(_ L: LuaState, ownerAt owner: Int32, ud: Int32, present: Bool) {
        LuaObject.pushUserValue(L, owner)
        lua_pushvalue(L, ud)
        if present { lua_pushboolean(L, 1) } else { lua_pushnil(L) }
        lua_rawset(L, -3)
        tk_pop(L, 1)
    }

    /// A hosting view discarded render slots: drop the body results kept for them.
    func releaseValues(_ node: TraitEnvironment, keys: [Int]) {
        guard let runtime = link.runtime else { return }
        let L = runtime.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard LuaObject.pushExisting(L, node), tk_getuservalue(L, -1) == LUA_TTABLE,
              lua_rawgetp(L, -1, UVKey.held) == LUA_TTABLE else { return }
        for key in keys {
            lua_pushnil(L)
            lua_rawseti(L, -2, lua_Integer(key))
        }
    }

    func implements(_ event: NodeEvent) -> Bool {
        link.runtime?.definedMethods.contains(event) == true
    }

    func invoke(_ event: NodeEvent, on node: TraitEnvironment, argument: AnyObject?) throws -> Bool {
        guard let runtime = link.runtime, runtime.definedMethods.contains(event) else { return false }
        return try runtime.callMethod(named: event.rawValue, on: node, argument: argument)
    }
}
