import CLua
import TraitKit

/// Where firing finds a Lua registration: a weak-valued array in the registry, two entries per
/// registration number `k`: what to call (the function, or the target-action table) at `2k-1`,
/// the node's userdata at `2k`.
///
/// Firing then reads two array slots, packed in registration order, instead of hashing the
/// node's address into the identity cache and loading its userdata: on a large tree each of
/// those is a miss to a page of its own per fired handler. The entries are weak: the node's
/// userdata owns its handlers (`HandlerSlot`), so a handler that captures its node is still a
/// cycle Lua's collector can free (§7). Numbers are reused once the engine's registration is
/// gone (`HandlerTable.Number`), so the array is as long as the most registrations alive, or
/// garbage not yet collected, at once (docs/performance.md says what that costs).
enum HandlerTable {
    /// A registration number, given back when the engine's registration (whose closure holds
    /// it) goes: until then the engine may fire it, so no other registration may take it.
    final class Number {
        let k: Int
        let link: RuntimeLink

        init(_ runtime: LuaRuntime) {
            k = runtime.freeHandlerNumbers.popLast() ?? runtime.handlerNumbers + 1
            if k > runtime.handlerNumbers { runtime.handlerNumbers = k }
            link = runtime.link
        }

        deinit { link.runtime?.freeHandlerNumbers.append(k) }

        /// Runs the registration's Lua side; nothing once the state is closed.
        func fire(previous: TraitCollection) throws {
            try link.withRuntime { try $0.fireHandler(k, previous: previous) }
        }
    }

    /// With the handler table at `table`: pushes the node userdata of registration `k` and
    /// what to call, and returns the latter's type (nil if that was collected); pushes nothing
    /// and returns `LUA_TNONE` once the node's userdata is gone.
    static func push(_ L: LuaState, _ k: Int, table: Int32) -> Int32 {
        guard lua_rawgeti(L, table, lua_Integer(2 * k)) == LUA_TUSERDATA else {
            tk_pop(L, 1)
            return LUA_TNONE
        }
        return lua_rawgeti(L, table, lua_Integer(2 * k - 1))
    }

    /// Stores the entry on top of the stack (popped) and the node userdata at `ud` under `k`.
    static func store(_ L: LuaState, node ud: Int32, _ k: Int) {
        let ud = absolute(L, ud)
        pushRef(L, LuaRuntime.unretained(L)._withUnsafeGuaranteedRef { $0.handlersRef })
        lua_rotate(L, -2, 1)
        lua_rawseti(L, -2, lua_Integer(2 * k - 1))
        lua_pushvalue(L, ud)
        lua_rawseti(L, -2, lua_Integer(2 * k))
        tk_pop(L, 1)
    }
}
