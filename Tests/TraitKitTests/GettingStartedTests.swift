import Testing
import TraitKit

/// The code of the DocC getting-started article (TraitKit.docc/GettingStarted.md), as written
/// there: if the article's example stops working, this fails.
@Suite("Getting started")
struct GettingStartedTests {
    enum Theme: Int, TraitEnum { case standard, pastel, bold }

    struct ThemeTrait: TraitDefinition {
        static let defaultValue = Theme.standard
        static let name = "GettingStartedTheme"
    }

    @Test func theArticlesExampleRunsAsItSays() throws {
        var printed: [String] = []
        let app = Application()
        let screen = Screen(systemTraits: TraitCollection { $0.userInterfaceIdiom = .phone })
        app.add(screen)
        let window = Window(scene: WindowScene(screen: screen))
        let root = ViewController(name: "root")
        window.rootViewController = root
        let header = View(name: "header")
        try root.view.addSubview(header)
        try app.update()

        let registration = try header.registerForTraitChanges([ThemeTrait.self]) { node, previous in
            printed.append("\(previous[ThemeTrait.self]) -> \(node.traitCollection[ThemeTrait.self])")
        }
        root.traitOverrides[ThemeTrait.self] = .pastel
        try app.update()
        #expect(printed == ["standard -> pastel"])
        #expect(header.explain(ThemeTrait.self).contains("override on ViewController 'root'"))

        header.unregisterForTraitChanges(registration)
        root.traitOverrides[ThemeTrait.self] = .bold
        try app.update()
        #expect(printed.count == 1)
    }
}
