/// R8: view controller appearance transitions, run by the window's update:
/// `viewWillAppear` before the trait pass (traits still stale), `viewIsAppearing` right after
/// it (traits fresh, once per appearance), `viewDidAppear` after layout and display; the
/// disappearing side mirrors it.
enum Appearance {
    /// Notes every view controller in `node`'s trait subtree whose window changed.
    static func windowChanged(for node: TraitEnvironment, from old: Window?, to new: Window?) {
        guard old !== new else { return }
        var controllers: [ViewController] = []
        collectControllers(node, into: &controllers)
        guard !controllers.isEmpty else { return }
        old?.pendingAppearance.append(contentsOf: controllers)
        new?.pendingAppearance.append(contentsOf: controllers)
        old?.markNeedsTraitUpdate()
        new?.markNeedsTraitUpdate()
    }

    /// Whether `node`'s trait subtree may hold a view controller. A leaf that is not one holds
    /// none, and most views placed or removed are leaves: their windows, each a walk up the
    /// tree, need not be looked up.
    static func mayHoldControllers(_ node: TraitEnvironment) -> Bool {
        node is ViewController || !node.traitChildren.isEmpty
    }

    /// Notes every view controller of `window` (its root's tree and what it presents): the
    /// window entered or left a scene, which shows or hides it.
    static func visibilityChanged(of window: Window) {
        var controllers: [ViewController] = []
        collectControllers(window, into: &controllers)
        guard !controllers.isEmpty else { return }
        window.pendingAppearance.append(contentsOf: controllers)
        window.markNeedsTraitUpdate()
    }

    /// Whether `controller` is on screen as UIKit counts it: in a window that is in a scene.
    static func isVisible(_ controller: ViewController) -> Bool {
        controller.window?.windowScene != nil
    }

    /// Placing a built tree in a window walks every node of it: the walk reads the children's
    /// entries, unretained, with no closure per node.
    private static func collectControllers(_ node: TraitEnvironment, into list: inout [ViewController]) {
        if let controller = node as? ViewController { list.append(controller) }
        for entry in node.traitChildren where !entry.isTombstone {
            entry.node._withUnsafeGuaranteedRef { collectControllers($0, into: &list) }
        }
    }

    /// Starts the transitions pending in `window`; returns the controllers in transition.
    static func begin(_ window: Window, context: UpdateContext) -> [ViewController] {
        let pending = window.pendingAppearance
        window.pendingAppearance.removeAll()
        var started: [ViewController] = []
        for controller in pending where !started.contains(where: { $0 === controller }) {
            let visible = isVisible(controller)
            switch (visible, controller.appearState) {
            case (true, .disappeared), (true, .disappearing):
                controller.appearState = .appearing
                call(.viewWillAppear, controller, context) { controller.viewWillAppear() }
                started.append(controller)
            case (false, .appeared), (false, .appearing):
                controller.appearState = .disappearing
                call(.viewWillDisappear, controller, context) { controller.viewWillDisappear() }
                started.append(controller)
            default:
                break
            }
        }
        return started
    }

    static func isAppearing(_ controllers: [ViewController], context: UpdateContext) {
        for controller in controllers where controller.appearState == .appearing {
            call(.viewIsAppearing, controller, context) { controller.viewIsAppearing() }
        }
    }

    static func finish(_ controllers: [ViewController], context: UpdateContext) {
        for controller in controllers {
            switch controller.appearState {
            case .appearing:
                controller.appearState = .appeared
                call(.viewDidAppear, controller, context) { controller.viewDidAppear() }
            case .disappearing:
                controller.appearState = .disappeared
                call(.viewDidDisappear, controller, context) { controller.viewDidDisappear() }
            default:
                break
            }
        }
    }

    private static func call(_ event: NodeEvent, _ controller: ViewController, _ context: UpdateContext,
                             _ fallback: () -> Void) {
        context.current.withCurrent(controller) {
            context.run { try controller.dispatch(event, fallback: fallback) }
        }
    }
}
