import Testing
@testable import TraitKitLua

/// The `tk` functions that are not a class's: `tk.async`, ...
@Suite("tk module functions")
struct LuaModuleTests {
    /// `tk.async(f, ...)` calls `f(...)` as `pcall(f, ...)` would, trailing nils counted.
    @Test func asyncPassesItsArguments() {
        expectLua("""
            local tk = require "traitkit"
            local got
            tk.async(function(...) got = table.pack(...) end, "a", nil, 3, nil)
            local none
            tk.async(function(...) none = select("#", ...) end)
            assert(got == nil and none == nil, "nothing runs before the update")
            tk.update()
            assert(got.n == 4 and got[1] == "a" and got[2] == nil and got[3] == 3, "arguments: " .. got.n)
            assert(none == 0, "no arguments: " .. tostring(none))
            """)
    }
}
