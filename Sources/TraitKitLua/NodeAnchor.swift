import CLua
import TraitKit

/// Keeps a node's userdata alive exactly as long as the engine keeps the node: the userdata
/// is a link of a chain that starts at its structural owner's userdata, so Lua's collector
/// traces the same ownership graph the engine has. A detached subtree nobody references is
/// garbage as a whole, self-capturing handlers included; a view in a window lives while the
/// window does.
///
/// The chain runs through user values, which sit inline in the userdata: an owner's
/// `firstSlot` holds one node it owns, each owned node's `nextSlot` the next, and its
/// `previousSlot` the node before it or, for the first, the owner. Joining and leaving an
/// owner are a few stores, with no table to grow, hash or allocate.
///
/// It is also the node's `NodeBinding`: the engine calls it for every lifecycle callback, and
/// it runs the scripted method (per-instance first, then the Lua class chain) if there is one;
/// and the runner of the runtime's registrations, whose entries live in the node's userdata
/// (`RegistrationModule`).
final class NodeAnchor: TraitChangeRunner, NodeBinding {
    /// The runtime while its state is open (the engine may keep the node longer).
    private let link: RuntimeLink

    init(runtime: LuaRuntime) { link = runtime.link }

    /// Called when a node gets its userdata (at index `i`). One anchor serves every node of a
    /// runtime: it keeps nothing of a node's own, and an object per node was one more
    /// allocation for every view a script makes.
    static func adopt(_ L: LuaState, _ i: Int32, _ node: TraitEnvironment, _ runtime: LuaRuntime) {
        node.binding = runtime.nodeAnchor
        attach(L, absolute(L, i), node, runtime)  // a new userdata is in no chain yet
    }

    func ownerDidChange(_ node: TraitEnvironment) {
        link.withRuntime { runtime in
            let L = runtime.L
            guard LuaObject.pushArgument(L, node) || LuaObject.pushExisting(L, node) else { return }
            Self.anchor(L, lua_gettop(L), node, runtime)
            tk_pop(L, 1)
        }
    }

    /// The node userdata's user values that link it into its owner's chain: the node before
    /// it (the owner itself for the first; `true` when the application owns it), the node
    /// after it, and the first node it owns.
    static let previousSlot: Int32 = 4
    static let nextSlot: Int32 = 6
    static let firstSlot: Int32 = 7

    /// Moves the userdata at `ud` from its previous owner's chain to its current owner's.
    static func anchor(_ L: LuaState, _ ud: Int32, _ node: TraitEnvironment, _ runtime: LuaRuntime) {
        leave(L, ud, runtime)
        attach(L, ud, node, runtime)
    }

    /// Links the userdata at `ud`, in no chain, into its current owner's.
    private static func attach(_ L: LuaState, _ ud: Int32, _ node: TraitEnvironment, _ runtime: LuaRuntime) {
        switch node.owner {
        case let owner as TraitEnvironment:
            if !LuaObject.pushArgument(L, owner) { LuaObject.push(L, owner, .node) }
            join(L, ud, owner: absolute(L, -1))
            tk_pop(L, 1)
        case is Application:
            setAnchoredByApplication(L, ud, runtime, true)
            lua_pushboolean(L, 1)
            _ = lua_setiuservalue(L, ud, previousSlot)
        default:
            break
        }
    }

    /// Unlinks the userdata at `ud` from the chain it is in, if any.
    private static func leave(_ L: LuaState, _ ud: Int32, _ runtime: LuaRuntime) {
        switch lua_getiuservalue(L, ud, previousSlot) {
        case LUA_TUSERDATA:
            let previous = absolute(L, -1)
            lua_getiuservalue(L, ud, nextSlot)
            if lua_type(L, -1) == LUA_TUSERDATA {
                lua_pushvalue(L, previous)
                _ = lua_setiuservalue(L, -2, previousSlot)
            }
            // The node before is the owner exactly when `ud` is its first: a node owned by the
            // same owner cannot own `ud` too.
            lua_getiuservalue(L, previous, firstSlot)
            let slot = lua_rawequal(L, -1, ud) != 0 ? firstSlot : nextSlot
            tk_pop(L, 1)
            _ = lua_setiuservalue(L, previous, slot)
            lua_pushnil(L)
            _ = lua_setiuservalue(L, ud, nextSlot)
        case LUA_TBOOLEAN:
            setAnchoredByApplication(L, ud, runtime, false)
        default:
            tk_pop(L, 1)
            return
        }
        tk_pop(L, 1)
        lua_pushnil(L)
        _ = lua_setiuservalue(L, ud, previousSlot)
    }

    /// Enters (or removes) the userdata at `ud` in the set of nodes the application owns
    /// (windows and screens): those have no owner userdata to hang from.
    private static func setAnchoredByApplication(_ L: LuaState, _ ud: Int32, _ runtime: LuaRuntime, _ present: Bool) {
        pushRef(L, runtime.anchoredRef)
        lua_pushvalue(L, ud)
        if present { lua_pushboolean(L, 1) } else { lua_pushnil(L) }
        lua_rawset(L, -3)
        tk_pop(L, 1)
    }

    /// Links the userdata at `ud`, in no chain, first into the chain of the owner at `owner`.
    private static func join(_ L: LuaState, _ ud: Int32, owner: Int32) {
        if lua_getiuservalue(L, owner, firstSlot) == LUA_TUSERDATA {
            lua_pushvalue(L, ud)
            _ = lua_setiuservalue(L, -2, previousSlot)
        }
        _ = lua_setiuservalue(L, ud, nextSlot)
        lua_pushvalue(L, ud)
        _ = lua_setiuservalue(L, owner, firstSlot)
        lua_pushvalue(L, owner)
        _ = lua_setiuservalue(L, ud, previousSlot)
    }

    /// Registration `id` of `node` fired: runs its entry; nothing once the state is closed.
    override func run(_ id: Int64, of node: TraitEnvironment, previous: TraitCollection) throws {
        try link.withRuntime { try $0.fireHandler(id, of: node, previous: previous) }
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
