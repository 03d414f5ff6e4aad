import CLua

/// Where the Lua side of a node's registrations lives: the node userdata's third user value.
///
/// Most nodes have one Lua registration. Its entry (the function, or the target-action table)
/// sits in the user value itself and the box records its id, so firing it loads the userdata
/// and the function and nothing else: on a large tree each extra table on the way is a cache
/// miss per fired handler. A second registration turns the slot into a table of entries by id.
/// Lua's collector traces user values, so a handler that captures its node is a cycle it frees.
enum HandlerSlot {
    private static let slot: Int32 = 3

    /// Stores the entry on top of the stack (popped) as registration `id` of the node at `ud`.
    static func store(_ L: LuaState, node ud: Int32, id: Int) {
        let ud = absolute(L, ud)
        guard let box = LuaObject.box(L, ud) else { tk_pop(L, 1); return }
        if box.pointee.handler == 0, lua_getiuservalue(L, ud, slot) == LUA_TNIL {
            tk_pop(L, 1)
            _ = lua_setiuservalue(L, ud, slot)
            box.pointee.handler = Int64(id)
            return
        }
        if box.pointee.handler != 0 {
            // The single entry moves into a table with the new one.
            tk_newtable(L)
            lua_getiuservalue(L, ud, slot)
            lua_rawseti(L, -2, lua_Integer(box.pointee.handler))
            lua_pushvalue(L, -1)
            _ = lua_setiuservalue(L, ud, slot)
            box.pointee.handler = 0
        }
        lua_rotate(L, -2, 1)
        lua_rawseti(L, -2, lua_Integer(id))
        tk_pop(L, 1)
    }

    /// Pushes the entry of registration `id` of the node userdata at absolute index `ud`, whose
    /// box is `box`, and returns its type (a function or a target-action table); returns
    /// `LUA_TNONE` (nothing pushed) when there is none, as after `unregisterForTraitChanges`.
    static func push(_ L: LuaState, node ud: Int32, box: UnsafeMutablePointer<LuaObject.Box>, id: Int) -> Int32 {
        let type = lua_getiuservalue(L, ud, slot)
        if box.pointee.handler == Int64(id) { return type }
        if box.pointee.handler == 0, type == LUA_TTABLE {
            let found = lua_rawgeti(L, -1, lua_Integer(id))
            tk_replace(L, -2)
            if found != LUA_TNIL { return found }
        }
        tk_pop(L, 1)
        return LUA_TNONE
    }

    /// Forgets registration `id` of the node at `ud`; forgetting one it never had does nothing.
    static func remove(_ L: LuaState, node ud: Int32, id: Int) {
        let ud = absolute(L, ud)
        guard let box = LuaObject.box(L, ud) else { return }
        if box.pointee.handler == Int64(id) {
            lua_pushnil(L)
            _ = lua_setiuservalue(L, ud, slot)
            box.pointee.handler = 0
        } else if box.pointee.handler == 0 {
            if lua_getiuservalue(L, ud, slot) == LUA_TTABLE {
                lua_pushnil(L)
                lua_rawseti(L, -2, lua_Integer(id))
            }
            tk_pop(L, 1)
        }
    }
}
