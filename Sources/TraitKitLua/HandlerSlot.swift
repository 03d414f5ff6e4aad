import CLua

/// What owns the Lua side of a node's registrations: the node userdata's third user value.
///
/// An entry (the function, or the target-action table) lives exactly as long as the node's
/// userdata. Lua's collector traces user values, so a handler that captures its node is a
/// cycle it frees. Ids count up per runtime (`LuaRuntime.lastHandlerId`). Most nodes have one
/// Lua registration: its entry sits in the user value itself and the box records its id; a
/// second turns the slot into a table of entries by id.
enum HandlerSlot {
    private static let slot: Int32 = 3

    /// Stores the entry on top of the stack (popped) as registration `id` of the node at `ud`.
    static func store(_ L: LuaState, node ud: Int32, id: Int64) {
        let ud = absolute(L, ud)
        guard let box = LuaObject.box(L, ud) else { tk_pop(L, 1); return }
        if box.pointee.handler == 0, lua_getiuservalue(L, ud, slot) == LUA_TNIL {
            tk_pop(L, 1)
            _ = lua_setiuservalue(L, ud, slot)
            box.pointee.handler = id
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

    /// Forgets registration `id` of the node at `ud`; forgetting one it never had does nothing.
    static func remove(_ L: LuaState, node ud: Int32, id: Int64) {
        let ud = absolute(L, ud)
        guard let box = LuaObject.box(L, ud) else { return }
        if box.pointee.handler == id {
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

    /// Pushes the entry of registration `id` of the node at `ud` and returns its type (nil
    /// when the node has no such entry).
    static func push(_ L: LuaState, node ud: Int32, id: Int64) -> Int32 {
        guard let box = LuaObject.box(L, ud) else {
            lua_pushnil(L)
            return LUA_TNIL
        }
        let single = box.pointee.handler
        if single == id { return lua_getiuservalue(L, ud, slot) }
        guard single == 0, lua_getiuservalue(L, ud, slot) == LUA_TTABLE else {
            if single == 0 { tk_pop(L, 1) }
            lua_pushnil(L)
            return LUA_TNIL
        }
        let type = lua_rawgeti(L, -1, lua_Integer(id))
        tk_replace(L, -2)
        return type
    }
}
