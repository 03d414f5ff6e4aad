import CLua

/// `require "traitkit"` from a Lua interpreter the binding did not make (Debian's `lua5.4`):
/// `luaopen_traitkit` in the C module that `Scripts/build-lua-module` builds calls
/// `openModule`.
///
/// The runtime attaches to the interpreter's state and lives as long as it: a table in the
/// registry whose finalizer releases the runtime. It is made before any object of the binding
/// (the module's own, `tk.app` and the system traits' among them), so Lua finalizes it after
/// every one (finalizers run newest first), while their finalizers can still reach the runtime.
extension LuaRuntime {
    /// Attaches a runtime to `L` (once per state), leaves the module on the stack and returns
    /// 1, as a `lua_CFunction` opening a module does. A second `require` (after a script
    /// cleared `package.loaded.traitkit`) gets the same module.
    public static func openModule(_ L: LuaState) -> Int32 {
        // Nothing may raise before the runtime is attached (this is a Swift frame Lua called):
        // the check allocates nothing.
        if tk_is_attached(L) == 0 {
            let runtime = LuaRuntime(attachingTo: L)
            _ = rawGetField(L, tk_registryindex(), sentinelKey)
            _ = lua_getmetatable(L, -1)
            push(L, releaseRuntime)
            rawSetField(L, -2, "__gc")
            tk_pop(L, 2)
            _ = Unmanaged.passRetained(runtime)
            runtime.limits.pointee.swift_depth = 0  // Lua's own code is on top from here on
        }
        LuaModule.pushModule(L)
        return 1
    }

    /// The registry's key for the sentinel.
    static let sentinelKey = "traitkit.runtime"

    /// Makes the registry's sentinel, marked for finalization by a placeholder `__gc` (Lua
    /// marks a table when it gets its metatable): `openModule` puts the finalizer in once the
    /// runtime, whose functions it needs, exists. Runs before the runtime makes any object.
    static func makeSentinel(_ L: LuaState) {
        tk_newtable(L)
        tk_newtable(L)
        lua_pushboolean(L, 1)
        rawSetField(L, -2, "__gc")
        lua_setmetatable(L, -2)
        rawSetField(L, tk_registryindex(), sentinelKey)
    }

    /// The finalizer of the registry's sentinel: the state is closing.
    private static let releaseRuntime: SwiftLuaFunction = { L in
        let runtime = LuaRuntime.unretained(L!)
        runtime.takeUnretainedValue().close()
        runtime.release()
        return 0
    }
}
