/// R10: the hierarchy queries Introspect uses, public for scripts and Swift users alike.
/// Classes are matched by name: the node's class name, or any engine class it is.
extension View {
    /// The first view of class `name` in this view's subtree, depth first (not this view).
    public func findChild(ofClass name: String) -> View? {
        for subview in subviews {
            if let found = subview.firstView(ofClass: name) { return found }
        }
        return nil
    }

    /// The first view of class `name` in the previous siblings' subtrees, nearest sibling first.
    public func previousSibling(containing name: String) -> View? {
        guard let superview, let index = superview.subviews.firstIndex(where: { $0 === self }) else { return nil }
        for sibling in superview.subviews[..<index].reversed() {
            if let found = sibling.firstView(ofClass: name) { return found }
        }
        return nil
    }
}

extension TraitEnvironment {
    /// The nearest trait ancestor of class `name`.
    public func ancestor(ofClass name: String) -> TraitEnvironment? {
        var node = traitParentNode
        while let current = node {
            if current.isKind(ofClassNamed: name) { return current }
            node = current.traitParentNode
        }
        return nil
    }
}
