import CBareBinding
import CLua
import TraitKitLua

/// The bare C binding (`CBareBinding`) the single operations and the whole script are
/// compared with: what any Lua binding pays on this machine with no engine behind it.
enum BareBinding {
    /// Gives a workload's script `bareBinding()`, which returns the binding's module table.
    static func provide(to runtime: LuaRuntime) {
        lua_pushcclosure(runtime.L, tk_open_bare_binding, 0)
        lua_setglobal(runtime.L, "bareBinding")
    }
}
