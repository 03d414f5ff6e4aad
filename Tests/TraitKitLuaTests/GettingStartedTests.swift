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
            local CardStyle = tk.defineTrait{ name = "CardStyle", values = {"plain", "framed"}, default = "plain" }
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceIdiom = "phone" } } }
            window.rootViewController = tk.ViewController{ name = "root" }
            window.rootViewController.traitOverrides.CardStyle = "framed"
            tk.update()
            """, name: "=settings")
        #expect(error == nil)
        #expect(runtime.application.windows.count == 1)
        let root = try #require(runtime.application.windows.first?.rootViewController)
        let cardStyle = try #require(TraitRegistry.all.first { $0.name == "CardStyle" })
        #expect(root.traitCollection[cardStyle] == (try cardStyle.enumValue(named: "framed")))
    }
}
