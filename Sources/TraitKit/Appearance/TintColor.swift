/// UIKit's tint: a view shows its own `tintColor`, else its superview's, up to the default
/// (systemBlue, `Color.tintColor`).
///
/// Setting a view's tint calls `tintColorDidChange` on it and on every view below that shows
/// the tint it inherits, at once, as UIKit documents ("when your code changes the value of
/// the tintColor ... on the view. Additionally, the system calls this method on a subview
/// that inherits a changed interaction tint color"). `TraitCollection.current` is the view's
/// collection during the call, as in UIKit. Moving a view is not such a change: UIKit documents
/// the call for property changes only, so a moved view shows its new superview's tint when
/// read and gets no call.
extension View {
    /// The tint this view shows.
    public var tintColor: Color {
        var view: View? = self
        while let v = view {
            if let own = v.ownTintColor { return own }
            view = v.superview
        }
        return .tintColor
    }

    /// How many tint changes may run inside one another's `tintColorDidChange` calls.
    public static let maxTintDepth = 32

    /// Sets this view's own tint (nil: inherit), then calls `tintColorDidChange` on this view
    /// and on the views below that inherit it, when the tint they show changed. Every call
    /// runs; the first error a binding's method raised is rethrown after.
    ///
    /// A `tintColorDidChange` that sets a tint again never settles: UIKit recurses until the
    /// stack runs out. Here a change `maxTintDepth` deep is refused, and so is every change
    /// after it until the outermost one returns: each level of such a loop may start it again
    /// more than once (a view that sets its superview's tint, whose notification reaches it
    /// again), and without the second rule the unwinding took time exponential in the depth.
    public func setTintColor(_ color: Color?) throws {
        let box = CurrentSlot.box
        guard box.tints.mayEnter(limit: View.maxTintDepth) else {
            throw TraitError.tintDidNotSettle(view: debugName, depth: View.maxTintDepth)
        }
        let before = tintColor
        ownTintColor = color
        guard tintColor !== before else { return }
        box.tints.enter()
        defer { box.tints.leave() }
        var failure: (any Error)?
        notifyTintChange(&failure)
        if let failure { throw failure }
    }

    private func notifyTintChange(_ failure: inout (any Error)?) {
        let box = CurrentSlot.box
        let saved = box.enter(self)
        do { try dispatch(.tintColorDidChange) { tintColorDidChange() } } catch { failure = failure ?? error }
        box.leave(saved)
        // A callback may change the subviews: walk a copy, and skip views it moved away.
        for subview in subviews where subview.ownTintColor == nil && subview.superview === self {
            subview.notifyTintChange(&failure)
        }
    }
}
