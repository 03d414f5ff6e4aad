import Testing
import TraitKit

/// The Swift code of the README's "From Swift" section, as written there.
@Suite("README")
struct ReadmeTests {
    enum Theme: Int, TraitEnum { case standard, pastel }
    struct ThemeTrait: TraitDefinition { static let defaultValue = Theme.standard; static let name = "ReadmeTheme" }

    @Test func theSwiftExampleRunsAsTheReadmeSays() throws {
        let app = Application()
        let screen = Screen(systemTraits: TraitCollection { $0.userInterfaceIdiom = .phone })
        app.add(screen)
        let window = Window(scene: WindowScene(screen: screen))
        window.rootViewController = ViewController(name: "root")
        let header = View(name: "header")
        try window.rootViewController!.view.addSubview(header)
        window.rootViewController!.traitOverrides[ThemeTrait.self] = .pastel
        try app.update()
        #expect("\(header.traitCollection[ThemeTrait.self])" == "pastel")
    }
}
