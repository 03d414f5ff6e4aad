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

    /// Sets this view's own tint (nil: inherit), then calls `tintColorDidChange` on this view
    /// and on the views below that inherit it, when the tint they show changed. Every call
    /// runs; the first error a binding's method raised is rethrown after.
    public func setTintColor(_ color: Color?) throws {
        let before = tintColor
        ownTintColor = color
        guard tintColor !== before else { return }
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
