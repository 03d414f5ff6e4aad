import CLua
import TraitKit

/// Where anchored Lua values live (`LuaValueBox.Hold.anchored`, DESIGN.md §7): in a table in
/// the user value of the userdata that stands for their Swift holder, keyed by trait id.
///
/// - A node's overrides anchor in its `traitOverrides` proxy, which the node's userdata keeps,
///   which the hierarchy keeps (`NodeAnchor`): the value lives while the node does.
/// - A collection anchors its object values in its own userdata when it first reaches Lua.
/// - A builder (`tk.TraitCollection(function(t) ... end)`) anchors what the function assigns
///   until the collection it builds reaches Lua.
///
/// An override's value stays in collections until the next update recomputes them (R6), so
/// replacing or removing it retires the old value to a table emptied after each `tk.update()`.
enum ValueAnchors {
    /// Anchors the value at `value` as `slot` of the userdata at `ud` (nil clears the slot).
    /// A value it replaces is retired when `retiring`.
    static func set(_ L: LuaState, _ value: Int32, in ud: Int32, slot: Int, retiring: Bool = false) {
        let value = absolute(L, value)
        LuaObject.pushUserValueTable(L, ud, UVKey.anchors)
        if retiring, lua_rawgeti(L, -1, lua_Integer(slot)) != LUA_TNIL, lua_rawequal(L, -1, value) == 0 {
            retire(L, -1)
        }
        if retiring { tk_pop(L, 1) }
        lua_pushvalue(L, value)
        lua_rawseti(L, -2, lua_Integer(slot))
        tk_pop(L, 1)
    }

    /// Anchors the value `box` holds as `slot` of the userdata at `ud`.
    static func set(_ L: LuaState, _ box: LuaValueBox, in ud: Int32, slot: Int) {
        let ud = absolute(L, ud)
        box.push(L)
        set(L, -1, in: ud, slot: slot)
        tk_pop(L, 1)
    }

    /// Anchors every Lua value of `collection` in its userdata at `ud`.
    static func anchorObjects(_ L: LuaState, of collection: TraitCollection, in ud: Int32) {
        collection.forEachObject { id, object in
            if let box = object.object as? LuaValueBox { set(L, box, in: ud, slot: id) }
        }
    }

    /// Keeps the value at `i` alive until the current or next `tk.update()` has finished.
    private static func retire(_ L: LuaState, _ i: Int32) {
        let i = absolute(L, i)
        pushRef(L, LuaRuntime.of(L).retiredRef)
        lua_pushvalue(L, i)
        lua_rawseti(L, -2, lua_Integer(lua_rawlen(L, -2) + 1))
        tk_pop(L, 1)
    }

    /// Lets retired values go: the update just run has recomputed the collections that held
    /// them. (Values are retired as a sequence: an empty table stays, and an update that
    /// retired nothing makes no table.)
    static func releaseRetired(_ L: LuaState) {
        let runtime = LuaRuntime.of(L)
        lua_rawgeti(L, tk_registryindex(), lua_Integer(runtime.retiredRef))
        let empty = lua_rawlen(L, -1) == 0
        tk_pop(L, 1)
        if empty { return }
        tk_newtable(L)
        lua_rawseti(L, tk_registryindex(), lua_Integer(runtime.retiredRef))
    }
}

extension LuaRuntime {
    /// `tk.update()`: one run-loop turn of the application (R6); then the override values
    /// replaced before it are no longer in any window's collections and may go.
    public func update() throws {
        defer {
            ValueAnchors.releaseRetired(L)
            tk_forget_error(L)
        }
        try application.update()
    }
}
