import Testing
import TraitKit
import TraitKitLua

/// The code of the DocC getting-started article (TraitKitLua.docc/GettingStarted.md).
@Suite("Getting started (Lua)")
struct LuaGettingStartedTests {
    @Test func theArticlesExampleRunsAsItSays() throws {
        let runtime = LuaRuntime()
        defer { runtime.close() }
        let error = runtime.run(chunk: """
            local tk = require "traitkit"
            local Density = tk.defineTrait{ name = "Density", values = {"regular", "compact"}, default = "regular" }
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceIdiom = "phone" } } }
            window.rootViewController = tk.ViewController{ name = "root" }
            window.rootViewController.traitOverrides.Density = "compact"
            tk.update()
            """, name: "=settings")
        #expect(error == nil)
        #expect(runtime.application.windows.count == 1)
        let root = try #require(runtime.application.windows.first?.rootViewController)
        let density = try #require(TraitRegistry.all.first { $0.name == "Density" })
        #expect(root.traitCollection[density] == (try density.enumValue(named: "compact")))
    }
}
