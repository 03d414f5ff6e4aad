import TraitKit

/// The session's custom traits, shared by the suites.
enum MyAppTheme: Int, TraitEnum { case standard, pastel, bold, monochrome }

struct MyAppThemeTrait: TraitDefinition {
    static let defaultValue = MyAppTheme.standard
    static let affectsColorAppearance = true
    static let name = "Theme"
    static let identifier = "com.myapp.theme"
}

struct ContainedInSettingsTrait: TraitDefinition {
    static let defaultValue = false
}

extension TraitCollection {
    var myAppTheme: MyAppTheme { self[MyAppThemeTrait.self] }
    var isContainedInSettings: Bool { self[ContainedInSettingsTrait.self] }
}

extension MutableTraits {
    var myAppTheme: MyAppTheme {
        get { self[MyAppThemeTrait.self] }
        set { self[MyAppThemeTrait.self] = newValue }
    }
    var isContainedInSettings: Bool {
        get { self[ContainedInSettingsTrait.self] }
        set { self[ContainedInSettingsTrait.self] = newValue }
    }
}

/// screen → scene → window → root controller → root view, ready for subviews.
struct Stage {
    let app = Application()
    let screen: Screen
    let scene: WindowScene
    let window: Window
    let root: ViewController

    init(systemTraits: TraitCollection = TraitCollection { $0.userInterfaceIdiom = .phone }) {
        screen = Screen(systemTraits: systemTraits, name: "screen")
        app.add(screen)
        scene = WindowScene(screen: screen, name: "scene")
        window = Window(scene: scene, name: "window")
        root = ViewController(name: "root")
        window.rootViewController = root
    }

    func view(_ name: String, in parent: View? = nil) throws -> View {
        let view = View(name: name)
        try (parent ?? root.view).addSubview(view)
        return view
    }
}

/// A chain of `count` plain views (`plain0`, `plain1`, ...) under `top`; returns the deepest.
func chain(under top: View, count: Int) throws -> View {
    var node = top
    for i in 0..<count {
        let next = View(name: "plain\(i)")
        try node.addSubview(next)
        node = next
    }
    return node
}

/// A view that logs the callbacks it gets.
final class LoggingView: View {
    var log: [String] = []
    override func layoutSubviews() { log.append("layout:\(traitCollection.myAppTheme)") }
    override func draw() { log.append("draw") }
    override func traitCollectionDidChange(_ previous: TraitCollection?) { log.append("didChange") }
}
