/// R8: the constraint, layout and display passes, and automatic trait tracking (iOS 18):
/// traits read during `updateConstraints`, `layoutSubviews`, `viewWillLayoutSubviews`,
/// `viewDidLayoutSubviews` and `draw` are recorded, and a later change of one of them asks
/// for that pass again.
enum LayoutPass {
    /// The pass flags, on a node and on its ancestors.
    private static let ownFlags: NodeFlags = [.needsUpdateConstraints, .needsLayout, .needsDisplay]
    private static let subtreeFlags: NodeFlags = [.subtreeNeedsUpdateConstraints, .subtreeNeedsLayout, .subtreeNeedsDisplay]
    private static let passFlags = ownFlags.union(subtreeFlags)

    /// Before the three passes: while no binding has declared any of their methods, clears the
    /// pass flags of every node where none of them can run anything, in one walk; the passes
    /// then walk only the subtrees that lead to a node that may (a Window, a Swift subclass).
    /// A tree just built flags every node for all three passes, and walking it three times to
    /// call nothing was a third of its first update. Nothing observable happens at such a node
    /// in any pass, so clearing its flags early is exact.
    static func clearInert(_ node: TraitEnvironment) {
        guard !BindingHints.mayImplement(.updateConstraints), !BindingHints.mayImplement(.layoutSubviews),
              !BindingHints.mayImplement(.draw), !BindingHints.mayImplement(.viewWillLayoutSubviews),
              !BindingHints.mayImplement(.viewDidLayoutSubviews) else { return }
        _ = clearInertSubtree(node)
    }

    /// Clears what `clearInert` may below `node`; returns whether a flagged node is left there.
    /// Children are visited unretained: nothing here runs a callback or frees a node, and on a
    /// tree just built this walk reaches every node (a retain and a release each were a sixth
    /// of it).
    private static func clearInertSubtree(_ node: TraitEnvironment) -> Bool {
        guard !node.flags.isDisjoint(with: passFlags) else { return false }
        var pending = false
        if isInert(node) { node.flags.remove(ownFlags) } else { pending = !node.flags.isDisjoint(with: ownFlags) }
        var below = false
        if !node.flags.isDisjoint(with: subtreeFlags) {
            // The flags are tested before the call: most children of a node with a flagged
            // child have none.
            for entry in node.traitChildren where !entry.isTombstone {
                if entry.node._withUnsafeGuaranteedRef({ !$0.flags.isDisjoint(with: passFlags) && clearInertSubtree($0) }) {
                    below = true
                }
            }
            if !below { node.flags.remove(subtreeFlags) }
        }
        return pending || below
    }

    /// Whether no pass runs anything at `node`: it is no view, or a view for which each pass
    /// would skip its own and its controller's methods (`isPlain`).
    private static func isInert(_ node: TraitEnvironment) -> Bool {
        guard let view = node as? View else { return true }
        return isPlain(view, .updateConstraints) && layoutIsPlain(view) && isPlain(view, .draw)
    }

    /// Whether the layout pass would call nothing at `view`: neither its `layoutSubviews` nor
    /// its controller's `viewWillLayoutSubviews`/`viewDidLayoutSubviews`.
    private static func layoutIsPlain(_ view: View) -> Bool {
        isPlain(view, .layoutSubviews)
            && view.viewController.map { isPlain($0, .viewWillLayoutSubviews) && isPlain($0, .viewDidLayoutSubviews) } ?? true
    }

    /// UIKit's constraint pass: before layout, bottom-up (a view's subviews before it).
    static func updateConstraints(_ node: TraitEnvironment, context: UpdateContext) {
        let flags: NodeFlags = [.needsUpdateConstraints, .subtreeNeedsUpdateConstraints]
        guard !node.flags.isDisjoint(with: flags) else { return }
        let needsSelf = node.flags.contains(.needsUpdateConstraints)
        let below = node.flags.contains(.subtreeNeedsUpdateConstraints)
        node.flags.remove(flags)
        if below { forEachChild(of: node, flagged: flags) { updateConstraints($0, context: context) } }
        guard needsSelf, let view = node as? View, !isPlain(view, .updateConstraints) else { return }
        tracking(view, into: \.constraintsTraits, context) {
            context.run { try view.dispatch(.updateConstraints) { view.updateConstraints() } }
        }
    }

    static func layout(_ node: TraitEnvironment, context: UpdateContext) {
        updateConstraints(node, context: context)
        walk(node, flag: .needsLayout, subtree: .subtreeNeedsLayout) { view in
            if layoutIsPlain(view) { return }
            let controller = view.viewController
            tracking(view, into: \.layoutTraits, context) {
                if let controller {
                    context.run { try controller.dispatch(.viewWillLayoutSubviews) { controller.viewWillLayoutSubviews() } }
                }
                context.run { try view.dispatch(.layoutSubviews) { view.layoutSubviews() } }
                if let controller {
                    context.run { try controller.dispatch(.viewDidLayoutSubviews) { controller.viewDidLayoutSubviews() } }
                }
            }
        }
    }

    static func display(_ node: TraitEnvironment, context: UpdateContext) {
        walk(node, flag: .needsDisplay, subtree: .subtreeNeedsDisplay) { view in
            if isPlain(view, .draw) { return }
            tracking(view, into: \.displayTraits, context) {
                context.run { try view.dispatch(.draw) { view.draw() } }
            }
        }
    }

    /// Runs `callbacks` with `view`'s collection current, and keeps the traits they read in
    /// `set` of the view's extras, where a later change of one asks for the pass again.
    private static func tracking(_ view: View, into set: ReferenceWritableKeyPath<NodeExtras, TraitSet>,
                                 _ context: UpdateContext, _ callbacks: () -> Void) {
        let read = TraitReadTracking.recording { context.current.withCurrent(view, callbacks) }
        if !read.isEmpty || view.extras != nil {
            view.ensureExtras()[keyPath: set] = read
            view.extrasMasksDidChange()
        }
    }

    /// Whether `node` is a plain View or ViewController, whose own method for `event` is
    /// empty, and no script defined one: calling it, and recording the traits it reads, would
    /// do nothing. Most nodes of a large tree are such (the first update visits them all).
    @inline(__always)
    private static func isPlain(_ node: TraitEnvironment, _ event: NodeEvent) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: node))
        return (type == ObjectIdentifier(View.self) || type == ObjectIdentifier(ViewController.self))
            && !BindingHints.mayImplement(event)
    }

    /// Pre-order walk of the subtrees flagged `subtree`, acting on views flagged `flag`. Only
    /// a node flagged `subtree` has flagged nodes below it (`markAncestors` keeps that true),
    /// so a view asking for the pass among many siblings costs its superview no look at each
    /// of them. `act` may flag the subtree again (a `layoutSubviews` that adds a subview): it is
    /// walked in the same pass.
    private static func walk(_ node: TraitEnvironment, flag: NodeFlags, subtree: NodeFlags, _ act: (View) -> Void) {
        guard !node.flags.isDisjoint(with: [flag, subtree]) else { return }
        let needsSelf = node.flags.contains(flag)
        node.flags.remove(flag)
        if needsSelf, let view = node as? View { act(view) }
        guard node.flags.contains(subtree) else { return }
        node.flags.remove(subtree)
        forEachChild(of: node, flagged: [flag, subtree]) { walk($0, flag: flag, subtree: subtree, act) }
    }

    /// Calls `body` with each trait child of `node` that has one of `flags`, in order. The
    /// others are looked at without a retain and a release: among a view's many siblings one
    /// asks for the pass, and the look at each of the others was most of an update's cost.
    /// A child passed to `body` is retained for the call, whose callbacks may remove it.
    ///
    /// Children a callback adds meanwhile wait for the next pass (their flags mark the path to
    /// them again): an `updateConstraints` that adds a sibling whose own adds another kept one
    /// pass going for ever, out of reach of the update's limit on passes.
    private static func forEachChild(of node: TraitEnvironment, flagged flags: NodeFlags,
                                     _ body: (TraitEnvironment) -> Void) {
        let count = node.traitChildren.count
        var i = 0
        while i < Swift.min(count, node.traitChildren.count) {
            let entry = node.traitChildren[i]
            i += 1
            if !entry.isTombstone, !entry.node._withUnsafeGuaranteedRef({ $0.flags.isDisjoint(with: flags) }) {
                body(entry.takeUnretainedValue())
            }
        }
    }
}
