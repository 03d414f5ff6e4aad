/// R10: an immutable description of declarative UI (SwiftUI's `View` values). A
/// `HostingView` renders a tree of them into views whose classes name what backs them.
public final class Element: @unchecked Sendable {
    // @unchecked: immutable; its closures run on the hierarchy's thread.
    /// A `Custom` element's body: reads the environment, returns the content.
    public typealias Body = (EnvironmentReader) throws -> Element

    /// What an element is.
    public enum Kind {
        /// A view defined by a body that reads the environment (`E.Custom{ name, body }`).
        case custom(name: String, body: Body)
        /// A built-in element: `Text`, `VStack`, `HStack`, `ScrollView`, `List`, `Button`, `TextEditor`.
        case primitive(Primitive, attributes: [String: TraitValue], children: [Element])
        /// Hosts a view controller `make` creates (SwiftUI's `UIViewControllerRepresentable`).
        case viewControllerRepresentable(make: () throws -> ViewController)
        /// Hosts a view `make` creates (SwiftUI's `UIViewRepresentable`).
        case viewRepresentable(make: () throws -> View)
        /// `element:environment(key, value)`: sets a value for the subtree.
        case environment(key: EnvironmentKey, value: TraitValue, content: Element)
        /// `element:introspect(class, customize)`: finds the platform object behind `content`.
        case introspect(target: String, customize: (TraitEnvironment) throws -> Void, content: Element)
    }

    /// Built-in elements and the view classes that back them.
    public enum Primitive: String, CaseIterable, Sendable {
        /// The built-in elements, named as in SwiftUI.
        case Text, VStack, HStack, ScrollView, List, Button, TextEditor

        /// The attributes its view takes (`HostingView.apply`): `bounces` is a bool, the
        /// others strings. Bindings refuse any other, so a typo is an error, not a blank view.
        public var attributes: [String] {
            switch self {
            case .Text: ["text", "color", "name"]
            case .Button: ["title", "name"]
            case .TextEditor: ["text", "name"]
            case .ScrollView: ["bounces", "name"]
            case .VStack, .HStack, .List: ["name"]
            }
        }

        func makeView() -> View {
            switch self {
            case .Text: TraitKit.Label()
            case .VStack: TraitKit.StackView(axis: "vertical")
            case .HStack: TraitKit.StackView(axis: "horizontal")
            case .ScrollView: TraitKit.ScrollView()
            case .List: TraitKit.TableView()
            case .Button: TraitKit.Button()
            case .TextEditor: TraitKit.TextView()
            }
        }
    }

    /// What this element is.
    public let kind: Kind
    /// How many elements nest here, this one included (a `Custom` body's result counts apart:
    /// it is made at render). Rendering recurses once per level, so a tree deeper than
    /// `HierarchyDepth.limit` is refused there, and the Lua binding refuses to make one.
    public let depth: Int

    /// An element of `kind`.
    public init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .primitive(_, _, let children): depth = 1 + (children.lazy.map(\.depth).max() ?? 0)
        case .environment(_, _, let content), .introspect(_, _, let content): depth = 1 + content.depth
        case .custom, .viewControllerRepresentable, .viewRepresentable: depth = 1
        }
    }

    /// This element with `key` set to `value` for its subtree (`.environment(\\.key, value)`).
    public func environment(_ key: EnvironmentKey, _ value: TraitValue) -> Element {
        Element(.environment(key: key, value: value, content: self))
    }

    /// This element with `customize` called on the object of class `target` that backs it.
    public func introspect(_ target: String, customize: @escaping (TraitEnvironment) throws -> Void) -> Element {
        Element(.introspect(target: target, customize: customize, content: self))
    }
}

// MARK: The views that back built-in elements (UIKit's classes, without the UI prefix)

/// Backs `Text` (UILabel).
public final class Label: View {
    /// The text its `Text` element gives.
    public var text = ""
    /// The color name its `Text` element gives, if any.
    public var color: String?
}

/// Backs `VStack` / `HStack` (UIStackView).
public final class StackView: View {
    /// `vertical` (VStack) or `horizontal` (HStack).
    public var axis: String
    /// A stack along `axis`; UIStackView's default is horizontal.
    public init(axis: String = "horizontal", name: String? = nil) {
        self.axis = axis
        super.init(name: name)
    }
}

/// Backs `ScrollView` (UIScrollView).
public class ScrollView: View {
    /// Whether the scroll view bounces (`ScrollView{ bounces = false }`).
    public var bounces = true
}

/// Backs `List` (UITableView).
public final class TableView: ScrollView {}

/// Backs `TextEditor` (UITextView).
public final class TextView: ScrollView {
    /// The text its `TextEditor` element gives.
    public var text = ""
}

/// Backs `Button` (UIButton).
public final class Button: View {
    /// The title its `Button` element gives.
    public var title = ""
}

/// The hidden view Introspect injects next to an element (R10).
public final class IntrospectionMarker: View {
    let target: String
    let customize: (TraitEnvironment) throws -> Void
    var done = false

    init(target: String, customize: @escaping (TraitEnvironment) throws -> Void) {
        self.target = target
        self.customize = customize
        super.init()
    }
}

extension Element: CustomStringConvertible {
    /// `<Element Text>`, `<Element Custom 'CellView'>`; modifiers show what they wrap.
    public var description: String { "<Element \(summary)>" }

    private var summary: String {
        switch kind {
        case .custom(let name, _): "Custom '\(name)'"
        case .primitive(let primitive, _, _): primitive.rawValue
        case .viewControllerRepresentable: "ViewControllerRepresentable"
        case .viewRepresentable: "ViewRepresentable"
        case .environment(let key, _, let content): "\(content.summary) with \(key.name)"
        case .introspect(let target, _, let content): "\(content.summary) introspecting \(target)"
        }
    }
}
