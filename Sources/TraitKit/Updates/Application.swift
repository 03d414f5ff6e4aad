/// The run loop of one hierarchy (R6): owns its screens, the app-wide style (R9) and the
/// `async` queue. `update()` is one run-loop turn over every window.
///
/// Each thread that drives a hierarchy makes its own `Application`; nothing is shared.
public final class Application {
    /// The screens this application updates, in the order they were added.
    public private(set) var screens: [Screen] = []
    private var asyncQueue: [() throws -> Void] = []
    /// Windows taken out of their scene with appearance transitions still to run: the next
    /// update no longer reaches them through the screens (`Window.setScene`). Held weakly: a
    /// window the script lets go of is freed at once, as before, and runs nothing.
    private var leftWindows: [WeakWindow] = []
    private struct WeakWindow { weak var window: Window? }
    private var isUpdating = false

    /// How many passes `update()` runs before it calls a cycle an error (R7).
    public static let maxIterations = 100

    /// An application with no screens.
    public init() {}

    /// The Info.plist `UIUserInterfaceStyle` analogue: forces a style on every window;
    /// `.unspecified` lifts it.
    public var userInterfaceStyle: UserInterfaceStyle = .unspecified {
        didSet { if oldValue != userInterfaceStyle { screens.forEach { $0.invalidateScenes() } } }
    }

    /// Makes a screen part of this application, so `update()` reaches its windows.
    public func add(_ screen: Screen) {
        guard screen.application !== self else { return }
        screens.append(screen)
        screen.application = self
        screen.markNeedsTraitUpdate()
        screen.ownerDidChange()
    }

    /// Queues work to run after the passes of the current (or next) update.
    public func async(_ work: @escaping () throws -> Void) {
        asyncQueue.append(work)
    }

    /// Takes the transitions of a window that left its scene (see `leftWindows`).
    func windowLeft(_ window: Window) {
        if !leftWindows.contains(where: { $0.window === window }) { leftWindows.append(WeakWindow(window: window)) }
    }

    /// Every window of every scene of every screen.
    public var windows: [Window] {
        screens.flatMap { $0.scenes.flatMap(\.windows) }
    }

    /// One run-loop turn: traits, then appearance callbacks, then layout, then display, then
    /// queued async work, repeated until nothing is dirty. Callback errors do not stop it: the
    /// first one is rethrown at the end. A cycle that has not settled after `maxIterations`
    /// passes is an error naming what kept it going: the traits that changed in the last half
    /// of the passes (a cycle through several traits, a handler for A setting B and one for B
    /// setting A, changes only some of them in any one pass), the nodes new in the last pass (a
    /// callback that adds one in every pass), the nodes still asking for layout or display, and
    /// async work that queued more.
    public func update() throws {
        guard !isUpdating else {
            throw TraitError.invalidHierarchy(
                "update() was called from a callback during an update; changes made there are picked up by the running update")
        }
        guard hasPendingWork else { return }
        isUpdating = true
        defer { isUpdating = false }
        let context = UpdateContext()
        var stillChanging = TraitSet()
        for pass in 0..<Self.maxIterations {
            guard hasPendingWork else { return try context.rethrow() }
            context.beginPass()
            runPass(context)
            if pass >= Self.maxIterations / 2 { stillChanging.formUnion(context.changedTraits) }
        }
        guard hasPendingWork else { return try context.rethrow() }
        try context.rethrow()
        throw TraitError.updateDidNotSettle(traits: stillChanging.traits.map(\.name),
                                            added: context.newNodes.map(\.debugName),
                                            constraints: names(flagged: .needsUpdateConstraints),
                                            layout: names(flagged: .needsLayout),
                                            display: names(flagged: .needsDisplay), async: !asyncQueue.isEmpty)
    }

    /// The first few nodes with `flag` still set, for the non-settling error.
    private func names(flagged flag: NodeFlags) -> [String] {
        var found: [String] = []
        func visit(_ node: TraitEnvironment) {
            if node.flags.contains(flag) { found.append(node.debugName) }
            for child in node.traitChildNodes where found.count < 3 { visit(child) }
        }
        for screen in screens where found.count < 3 { visit(screen) }
        return found
    }

    private func runPass(_ context: UpdateContext) {
        let windows = self.windows + leftWindows.compactMap(\.window).filter { $0.windowScene == nil }
        leftWindows.removeAll()
        let transitions = windows.map { Appearance.begin($0, context: context) }
        for screen in screens {
            screen.walkTraits(context: context)
        }
        for batch in transitions { Appearance.isAppearing(batch, context: context) }
        for screen in screens { LayoutPass.clearInert(screen) }
        for screen in screens { LayoutPass.layout(screen, context: context) }
        for screen in screens { LayoutPass.display(screen, context: context) }
        for batch in transitions { Appearance.finish(batch, context: context) }
        let queued = asyncQueue
        asyncQueue.removeAll()
        for work in queued { context.run(work) }
    }

    private var hasPendingWork: Bool {
        let pending: NodeFlags = [.needsTraitUpdate, .subtreeNeedsTraitUpdate, .needsLayout, .subtreeNeedsLayout,
                                  .needsDisplay, .subtreeNeedsDisplay, .needsUpdateConstraints,
                                  .subtreeNeedsUpdateConstraints]
        if !asyncQueue.isEmpty || !leftWindows.isEmpty { return true }
        for screen in screens where !screen.flags.isDisjoint(with: pending) || !screen.flags.contains(.hasUpdated) {
            return true
        }
        // Not `windows`, which makes an array: an update with nothing to do, a script's
        // `tk.update()` after reading only, costs these loops alone.
        for screen in screens {
            for scene in screen.scenes where scene.windows.contains(where: { !$0.pendingAppearance.isEmpty }) { return true }
        }
        return false
    }
}
