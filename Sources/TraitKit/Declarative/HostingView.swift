/// R10: renders an element tree into views and keeps it current.
///
/// The environment of the root is the defaults, then bridged keys read from this view's own
/// trait collection. When that collection changes, each `Custom` body whose read keys
/// changed value is evaluated again and its subtree re-rendered; nothing else is.
public final class HostingView: View {
    /// The element tree this view renders; `setRoot` replaces it.
    public private(set) var root: Element
    /// The controller that hosts this view, if any (representable controllers become its children).
    unowned(unsafe) var hostingController: ViewController?
    private var tree: RenderNode?
    private var nextSlot = 0
    private var markers: [IntrospectionMarker] = []
    /// How many times a body was evaluated (for tests and the REPL).
    public private(set) var bodyEvaluations = 0

    /// A node of the rendered tree: an element, where its views went, what its body read.
    final class RenderNode {
        let element: Element
        let slot: Int
        var environment: EnvironmentValues
        var reads: [(key: EnvironmentKey, value: TraitValue)] = []
        var children: [RenderNode] = []
        /// The wrapper view a `Custom` element renders into.
        var container: View?
        var controller: ViewController?

        init(element: Element, slot: Int, environment: EnvironmentValues) {
            self.element = element
            self.slot = slot
            self.environment = environment
        }
    }

    /// A hosting view that renders `root` at its first update.
    public init(root: Element, name: String? = nil) {
        self.root = root
        super.init(name: name)
        flags.insert([.wantsFirstUpdateCallback, .wantsInternalTraitChange])
        summaryDidGrow()
    }

    /// Renders the tree the first time this view gets its traits (so bodies see real values).
    override func didFirstUpdateTraits() throws { try render() }

    /// Renders the tree now, if it was not rendered yet. A body that fails leaves nothing of
    /// the tree behind, so the view is empty rather than half rendered.
    public func render() throws {
        guard tree == nil else { return }
        let firstSlot = nextSlot + 1
        do {
            tree = try build(root, EnvironmentValues(traits: traitCollection), into: self)
        } catch {
            removeRendered(subviews)
            binding?.releaseValues(self, keys: Array(firstSlot..<(nextSlot + 1)))
            throw error
        }
    }

    /// Replaces the element tree (SwiftUI's `rootView =`). The old tree's views leave now,
    /// with the controllers its representables added; the new tree renders now, from this
    /// view's current collection, when the view has had its first update, else at that update.
    public func setRoot(_ element: Element) throws {
        root = element
        if let tree {
            removeRendered(subviews)
            binding?.releaseValues(self, keys: tree.allSlots)
            self.tree = nil
        }
        if flags.contains(.hasUpdated) { try render() }
    }

    /// Removes rendered views, the representables' controllers among them leaving the host
    /// controller too (a view going alone would leave its controller a child forever).
    private func removeRendered(_ views: [View]) {
        for view in views {
            if let host = hostingController { view.removeRepresentedControllers(from: host) }
            view.removeFromSuperview()
        }
        markers.removeAll { !$0.hasTraitAncestor(self) }
    }

    // MARK: Building

    private func build(_ element: Element, _ environment: EnvironmentValues, into parent: View) throws -> RenderNode {
        if element.depth > HierarchyDepth.limit {
            throw TraitError.invalidHierarchy("cannot render an element tree \(element.depth) levels deep in \(debugName) "
                                              + "(at most \(HierarchyDepth.limit))")
        }
        nextSlot += 1
        let node = RenderNode(element: element, slot: nextSlot, environment: environment)
        switch element.kind {
        case .custom(let name, let body):
            let container = View(name: nil)
            container.className = name
            try parent.addSubview(container)
            node.container = container
            try evaluate(node, body: body, into: container)
        case .primitive(let primitive, let attributes, let children):
            let view = primitive.makeView()
            apply(attributes, to: view)
            try parent.addSubview(view)
            node.children = try children.map { try build($0, environment, into: view) }
        case .viewControllerRepresentable(let make):
            let controller = try make()
            try controller.loadViewIfNeeded()  // so a failing loadView fails the render, not silently
            node.controller = controller
            try writeBridged(environment, into: controller)
            if let host = hostingController { try host.addChild(controller) }
            try parent.addSubview(controller.view)
        case .viewRepresentable(let make):
            try parent.addSubview(try make())
        case .environment(let key, let value, let content):
            node.children = [try build(content, environment.setting(key, to: value), into: parent)]
        case .introspect(let target, let customize, let content):
            node.children = [try build(content, environment, into: parent)]
            let marker = IntrospectionMarker(target: target, customize: customize)
            marker.className = "IntrospectionMarker"
            try parent.addSubview(marker)
            markers.append(marker)
        }
        return node
    }

    private func evaluate(_ node: RenderNode, body: Element.Body, into container: View) throws {
        let reader = EnvironmentReader(values: node.environment, hostView: self, slot: node.slot)
        bodyEvaluations += 1
        let result = try body(reader)
        node.reads = reader.reads
        node.children = [try build(result, node.environment, into: container)]
    }

    private func apply(_ attributes: [String: TraitValue], to view: View) {
        func text(_ key: String) -> String? {
            if case .string(let s)? = attributes[key] { return s }
            return nil
        }
        switch view {
        case let label as Label:
            label.text = text("text") ?? ""
            label.color = text("color")
        case let button as Button: button.title = text("title") ?? ""
        case let editor as TextView: editor.text = text("text") ?? ""
        default: break
        }
        if case .bool(let bounces)? = attributes["bounces"], let scroll = view as? ScrollView { scroll.bounces = bounces }
        if let name = text("name") { view.name = name }
    }

    /// Writes every explicitly set bridged value into the controller's overrides (R10): for a
    /// key bridged to one trait, that trait; otherwise every trait its `write` changes.
    private func writeBridged(_ environment: EnvironmentValues, into controller: ViewController) throws {
        for (key, value) in environment.explicit {
            guard let write = key.write else { continue }
            var fromDefaults = MutableTraits(TraitCollection())
            var fromHost = MutableTraits(traitCollection)
            try write(&fromDefaults, value)
            try write(&fromHost, value)
            let written = TraitCollection(fromHost)
            var traits = TraitCollection(fromDefaults).changedTraitSet(from: .defaults)
                .union(written.changedTraitSet(from: traitCollection))
            if let trait = key.bridgedTrait { traits.insert(trait.id) }
            for trait in traits.traits { try controller.traitOverrides.set(written[trait], for: trait) }
        }
    }

    // MARK: Updating

    /// The host's traits changed: re-evaluate the bodies whose read keys changed value.
    override func internalTraitsDidChange() throws {
        guard let tree else { return }
        try refresh(tree, traits: traitCollection)
    }

    private func refresh(_ node: RenderNode, traits: TraitCollection) throws {
        node.environment = node.environment.rebased(on: traits)
        if case .custom(_, let body) = node.element.kind, let container = node.container,
           try node.reads.contains(where: { try node.environment[$0.key] != $0.value }) {
            removeRendered(container.subviews)
            binding?.releaseValues(self, keys: node.children.flatMap(\.allSlots))
            try evaluate(node, body: body, into: container)
            return
        }
        for child in node.children { try refresh(child, traits: traits) }
    }

    // MARK: Introspect

    /// After layout, markers that are in a window get their customization queued for the next
    /// run-loop turn (`async`); it runs only if the marker is still in the hierarchy then.
    public override func layoutSubviews() {
        guard let app = window?.windowScene?.screen?.application else { return }
        for marker in markers where !marker.done && marker.window != nil {
            marker.done = true
            app.async { [weak marker] in
                guard let marker, marker.window != nil, let found = marker.findIntrospectionTarget() else { return }
                try found.traitCollection.performAsCurrent { try marker.customize(found) }
            }
        }
    }
}

extension HostingView.RenderNode {
    var allSlots: [Int] { [slot] + children.flatMap(\.allSlots) }
}

extension View {
    /// Takes the child controllers of `host` whose views are in this subtree out of `host`.
    fileprivate func removeRepresentedControllers(from host: ViewController) {
        if let controller = viewController, controller.parent === host { controller.detachFromParent() }
        for subview in subviews { subview.removeRepresentedControllers(from: host) }
    }
}

extension IntrospectionMarker {
    /// Walks up to the view host (the marker's superview) and searches the previous siblings'
    /// subtrees, nearest first, for the requested class; a view controller class is looked for
    /// among the host's enclosing controllers instead.
    func findIntrospectionTarget() -> TraitEnvironment? {
        guard let host = superview else { return nil }
        if let found = previousSibling(containing: target) { return found }
        var node: TraitEnvironment? = host
        while let current = node {
            if current is ViewController, current.isKind(ofClassNamed: target) { return current }
            node = current.traitParentNode
        }
        return nil
    }
}

/// R10: a view controller whose view renders an element tree (SwiftUI's `UIHostingController`).
public final class HostingController: ViewController {
    /// The element tree the view renders; `setRoot` replaces it.
    public private(set) var root: Element

    /// A controller whose view renders `root` (`UIHostingController(rootView:)`).
    public init(root: Element, name: String? = nil) {
        self.root = root
        super.init(name: name)
    }

    /// The view can outlive its controller (a superview keeps it): it must not keep pointing
    /// at it (`HostingView.hostingController` is unowned).
    deinit { hostingView?.hostingController = nil }

    /// Replaces the element tree (`rootView =`): a loaded view re-renders (see
    /// `HostingView.setRoot`), a view not loaded yet renders the new tree when it loads.
    public func setRoot(_ element: Element) throws {
        root = element
        try hostingView?.setRoot(element)
    }

    public override func loadView() {
        let hostView = HostingView(root: root)
        hostView.hostingController = self
        install(hostView)
    }

    /// The hosting view, once the view is loaded.
    public var hostingView: HostingView? { viewIfLoaded as? HostingView }
}

/// R10: `UIHostingConfiguration`: renders an element tree inside a cell view.
public final class HostingConfiguration {
    /// The element tree the cell shows.
    public let root: Element
    /// A configuration that shows `root`.
    public init(root: Element) { self.root = root }

    /// Replaces `cell`'s content with a hosting view for the tree, rendered at the next update;
    /// returns that view.
    @discardableResult
    public func apply(to cell: View) throws -> HostingView {
        for subview in cell.subviews where subview is HostingView { subview.removeFromSuperview() }
        let hostView = HostingView(root: root)
        try cell.addSubview(hostView)
        return hostView
    }
}
