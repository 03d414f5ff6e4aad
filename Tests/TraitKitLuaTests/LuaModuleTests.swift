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

    /// A script that clears `package.loaded.traitkit` and requires it again (a test runner
    /// isolating its files does) gets the same module, sandboxed or not.
    @Test func requireAfterClearingPackageLoadedGivesTheSameModule() throws {
        let script = """
            local tk = require "traitkit"
            package.loaded.traitkit = nil
            local again = require "traitkit"
            assert(again == tk, "require gave " .. tostring(again))
            assert(package.loaded.traitkit == tk)
            assert(again.View{ name = "v" }.name == "v")
            print("same module")
            """
        expectLua(script)
        for options in [[], ["--sandbox"]] {
            let result = try traitkit(["run"] + options + ["-"], input: script)
            #expect(result.status == 0, "\(options): \(result.stderr)")
            #expect(result.stdout == "same module\n", "\(options)")
        }
    }
}
