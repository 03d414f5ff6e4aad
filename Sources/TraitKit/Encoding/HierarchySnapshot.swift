/// A hierarchy as it is at one moment, from the screens down (R11): the one model every dump
/// format is drawn from (text, JSON, Graphviz, Mermaid, the HTML inspector), and what `traitkit`
/// compares between runs (`--watch`) and between environments (`--matrix`).
///
/// Nodes come in trait-tree order: screens, scenes, windows, controllers, presentations, views.
public struct HierarchySnapshot {
    /// One node and what it shows.
    public struct Node {
        /// The node's class (an engine class or a script's subclass).
        public let className: String
        /// The node's name, if it has one.
        public let name: String?
        /// `Screen`, `View 'header'`: how trees and messages name the node.
        public let label: String
        /// The labels from the screen down to the node, each with its position among siblings
        /// of the same label when there are several: the same node in two runs of a script has
        /// the same path, so runs and environments can be compared node by node.
        public let path: String
        /// A screen's system traits that are not at their default; empty for other nodes.
        public let systemTraits: [(trait: Trait, value: TraitValue)]
        /// The node's own overrides, in definition order.
        public let overrides: [(trait: Trait, value: TraitValue)]
        /// The node's collection.
        public let collection: TraitCollection
        /// A view's background, resolved for its collection (nil for no color, another node, or
        /// a snapshot made without resolving colors).
        public let backgroundColor: Color?
        /// The nodes below, in trait-tree order.
        public let children: [Node]
        private let node: TraitEnvironment

        init(_ node: TraitEnvironment, path parent: String, position: Int?, colors: Bool) {
            self.node = node
            className = node.className
            name = node.name
            label = Node.label(node)
            path = (parent.isEmpty ? "" : parent + " / ") + label + (position.map { " #\($0)" } ?? "")
            if let screen = node as? Screen {
                systemTraits = screen.systemTraits.nonDefaultTraits.map { ($0, screen.systemTraits[$0]) }
            } else {
                systemTraits = []
            }
            let storage = node.overrideStorage
            overrides = (storage?.mask.traits ?? []).map { ($0, storage!.value($0.id)!) }
            collection = node.traitCollection
            backgroundColor = colors ? try? (node as? View)?.backgroundColor?.resolvedColor(with: node.traitCollection) : nil
            children = Node.nodes(node.traitChildNodes, path: path, colors: colors)
        }

        static func label(_ node: TraitEnvironment) -> String {
            node.name.map { "\(node.className) '\($0)'" } ?? node.className
        }

        /// Nodes for `nodes`, numbered where siblings share a label.
        static func nodes(_ nodes: [TraitEnvironment], path: String, colors: Bool) -> [Node] {
            let labels = nodes.map(label)
            // Counted once: a flat list of many siblings must not cost their square.
            let counts = labels.reduce(into: [:]) { $0[$1, default: 0] += 1 }
            var seen: [String: Int] = [:]
            return zip(nodes, labels).map { child, label in
                let count = counts[label]!
                let position = seen[label, default: 0] + 1
                seen[label] = position
                return Node(child, path: path, position: count > 1 ? position : nil, colors: colors)
            }
        }

        /// Where the node's value of `trait` comes from, as `explain` says it: its own or an
        /// ancestor's override, the app-wide style, a screen's system traits, or the default.
        public func source(of trait: Trait) -> String { node.origin(of: trait).1 }

        /// This node and every node below it, in pre-order.
        public var preOrder: [Node] { [self] + children.flatMap(\.preOrder) }
    }

    /// One tree per screen, in the order the application holds them.
    public let screens: [Node]

    /// The hierarchy under every screen of `application`.
    public init(_ application: Application) {
        self.init(roots: application.screens)
    }

    /// The hierarchies under `roots` (screens, or any nodes). Without `resolvingColors` no
    /// dynamic color's provider runs: the text tree and JSON, which show no colors, run no
    /// script code, and a provider that prints the tree does not resolve itself again.
    public init(roots: [TraitEnvironment], resolvingColors: Bool = true) {
        screens = Node.nodes(roots, path: "", colors: resolvingColors)
    }

    /// Every node, screen by screen, in pre-order.
    public var nodes: [Node] { screens.flatMap(\.preOrder) }
}
