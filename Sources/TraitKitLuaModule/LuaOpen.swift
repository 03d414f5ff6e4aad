import TraitKitLua

/// The entry point Lua's `require "traitkit"` looks for in `traitkit.so`: a `lua_CFunction`
/// that attaches TraitKit to the interpreter's state and returns the module.
@_cdecl("luaopen_traitkit")
public func luaopenTraitKit(_ L: OpaquePointer?) -> Int32 {
    guard let L else { return 0 }
    return LuaRuntime.openModule(L)
}
