import CLua

/// `require "traitkit"` from a Lua interpreter the binding did not make (Debian's `lua5.4`):
/// `luaopen_traitkit` in the C module that `Scripts/build-lua-module` builds calls
/// `openModule`.
///
/// The runtime attaches to the interpreter's state and lives as long as it: a table in the
/// registry whose finalizer releases the runtime. It was made first, so Lua finalizes it after
/// every object of the binding (finalizers run in the reverse order of creation).
extension LuaRuntime {
    /// Attaches a runtime to `L` (once per state), leaves the module on the stack and returns
    /// 1, as a `lua_CFunction` opening a module does. A second `require` (after a script
    /// cleared `package.loaded.traitkit`) gets the same module.
    public static func openModule(_ L: LuaState) -> Int32 {
        if rawGetField(L, tk_registryindex(), "traitkit.limits") != LUA_TLIGHTUSERDATA {
            tk_pop(L, 1)
            let runtime = LuaRuntime(attachingTo: L)
            tk_newtable(L)
            tk_newtable(L)
            push(L, releaseRuntime)
            rawSetField(L, -2, "__gc")
            lua_setmetatable(L, -2)
            rawSetField(L, tk_registryindex(), "traitkit.runtime")
            _ = Unmanaged.passRetained(runtime)
            runtime.limits.pointee.swift_depth = 0  // Lua's own code is on top from here on
        } else {
            tk_pop(L, 1)
        }
        LuaModule.pushModule(L)
        return 1
    }

    /// The finalizer of the registry's sentinel: the state is closing.
    private static let releaseRuntime: SwiftLuaFunction = { L in
        let runtime = LuaRuntime.unretained(L!)
        runtime.takeUnretainedValue().close()
        runtime.release()
        return 0
    }
}
