/// R10: the hierarchy queries Introspect uses, public for scripts and Swift users alike.
/// Classes are matched by name: the node's class name, or any engine class it is.
extension View {
    /// The first view of class `name` in this view's subtree, depth first (not this view).
    public func findChild(ofClass name: String) -> View? {
        firstSubview { $0.firstView(ofClass: name) }
    }

    /// The first view of class `name` in the previous siblings' subtrees, nearest sibling first.
    public func previousSibling(containing name: String) -> View? {
        superview?.firstSubview(before: self) { $0.firstView(ofClass: name) }
    }

    /// This view or the first view of its subtree (depth first) of class `name`.
    public func firstView(ofClass name: String) -> View? {
        isKind(ofClassNamed: name) ? self : findChild(ofClass: name)
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

    /// Whether the node's class name, or the name of a class it is an instance of, is `name`.
    /// Names are compared by their bytes, as Lua compares them, not by canonical equivalence.
    public func isKind(ofClassNamed name: String) -> Bool {
        if className.utf8.elementsEqual(name.utf8) { return true }
        var type: AnyClass? = Swift.type(of: self)
        while let t = type {
            if nodeClassName(of: t).utf8.elementsEqual(name.utf8) { return true }
            type = _getSuperclass(t)
        }
        return false
    }
}
