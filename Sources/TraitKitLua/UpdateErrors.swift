import CLua
import TraitKit

/// The error a handler or lifecycle method raises during an update, as the script calls that
/// ran the update raise it (R7): `tk.update()`, `node:updateTraitsIfNeeded()`,
/// `window:layoutIfNeeded()`.
///
/// A message leaves with its position and traceback, as always. Any other value (`error({
/// code = 42 })`) leaves as that same value, as Lua's own `pcall` returns it: the binding keeps
/// the values of the errors raised while an update runs, by number, and the call that ran the
/// update raises the first one again (`TK_RAISE_PASS`), its traceback kept apart for an
/// uncaught end. The kept values go when the outermost update ends, so failing handlers in a
/// loop leave memory flat.
extension LuaRuntime {
    /// Runs `update` for a script call; see above.
    func runningUpdate(_ L: LuaState, _ update: () throws -> Void) throws {
        updateDepth += 1
        defer {
            updateDepth -= 1
            if updateDepth == 0, nextErrorValue > 1 { forgetErrorValues(L) }
        }
        do {
            try update()
        } catch let error as LuaCallError where error.valueNumber != 0 {
            pushRef(L, errorValuesRef)
            lua_rawgeti(L, -1, lua_Integer(error.valueNumber))
            lua_setfield(L, tk_registryindex(), TK_ERROR_KEY)
            tk_pop(L, 1)
            limits.pointee.kept_error = 1
            throw PassedLuaError(trace: error.description)
        }
    }

    /// With a failed call's error value kept by `tk_msghandler`: its number among the values
    /// kept for this update, or 0 when it is a message (or no update runs).
    func keepErrorValue(_ L: LuaState) -> Int {
        guard updateDepth > 0 else { return 0 }
        lua_getfield(L, tk_registryindex(), TK_ERROR_KEY)
        defer { tk_pop(L, 1) }
        let type = lua_type(L, -1)
        guard type != LUA_TSTRING, type != LUA_TNUMBER, type != LUA_TNIL else { return 0 }
        let number = nextErrorValue
        nextErrorValue += 1
        pushRef(L, errorValuesRef)
        lua_pushvalue(L, -2)
        lua_rawseti(L, -2, lua_Integer(number))
        tk_pop(L, 1)
        return number
    }

    private func forgetErrorValues(_ L: LuaState) {
        tk_newtable(L)
        lua_rawseti(L, tk_registryindex(), lua_Integer(errorValuesRef))
        nextErrorValue = 1
    }
}
