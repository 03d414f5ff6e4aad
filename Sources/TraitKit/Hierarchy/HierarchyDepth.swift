/// The deepest trait tree TraitKit builds. Every pass over the tree (the trait walk, layout,
/// dumps, freeing a subtree) recurses once per level on the native stack, so an unbounded
/// chain of views would overflow it and kill the process; with this bound the deepest tree
/// fits in a debug build's stack with room to spare. Real hierarchies are tens of levels deep.
///
/// The checks run where a subtree is placed under a node (`insertSubview`, a controller's
/// `setView`, `present`), counting levels from the root the parent is on. A window, its scene
/// and its screen sit above the views they hold and add at most three more levels.
/// Controller containment (`addChild`) and chains of presentations are bounded the same way:
/// freeing or dismissing them also recurses once per level.
public enum HierarchyDepth {
    /// At most this many levels, from a trait root down to the deepest node below it.
    public static let limit = 1000

    /// Throws when placing `subtree` so that its top is at level `level` (a root is level 1)
    /// would make the tree deeper than `limit`; `parent` names the node it goes under.
    static func check(placing subtree: TraitEnvironment, atLevel level: Int, under parent: TraitEnvironment)
        throws(TraitError) {
        let room = limit - level + 1
        if room < 1 || subtree.height(upTo: room) > room {
            throw .tooDeep(node: subtree.debugName, parent: parent.debugName, limit: limit)
        }
    }
}

extension HierarchyDepth {
    /// Throws when adding `child`'s containment tree under `parent` would nest controllers
    /// deeper than `limit`.
    static func check(adding child: ViewController, under parent: ViewController) throws(TraitError) {
        var level = 1
        var current = parent.parent
        while let node = current {
            level += 1
            current = node.parent
        }
        let room = limit - level
        if room < 1 || child.containmentHeight(upTo: room) > room {
            throw .tooDeep(node: child.debugName, parent: parent.debugName, limit: limit)
        }
    }
}

extension ViewController {
    /// How many controllers this one presents in a chain above it, itself included.
    var presentationDepth: Int {
        var count = 1
        var current = presentingViewController
        while let node = current {
            count += 1
            current = node.presentingViewController
        }
        return count
    }

    /// Levels of child controllers from this one down (1 without children), counted no
    /// further than `bound + 1`.
    func containmentHeight(upTo bound: Int) -> Int {
        if children.isEmpty { return 1 }
        var deepest = 1
        var stack: [(node: ViewController, level: Int)] = [(self, 1)]
        while let (node, level) = stack.popLast() {
            deepest = Swift.max(deepest, level)
            if deepest > bound { break }
            for child in node.children { stack.append((child, level + 1)) }
        }
        return deepest
    }
}

extension TraitEnvironment {
    /// This node's level in its trait tree: 1 at a root.
    var level: Int {
        var count = 1
        var current = traitParent
        while let node = current {
            count += 1
            current = node.traitParent
        }
        return count
    }

    /// The number of levels from this node down to its deepest descendant (1 for a leaf),
    /// counted without recursion and no further than `bound + 1`: a caller only asks whether
    /// it fits in `bound`.
    func height(upTo bound: Int) -> Int {
        if traitChildren.isEmpty { return 1 }
        var deepest = 1
        var stack: [(node: TraitEnvironment, level: Int)] = [(self, 1)]
        while let (node, level) = stack.popLast() {
            deepest = Swift.max(deepest, level)
            if deepest > bound { break }
            for child in node.traitChildren { stack.append((child.takeUnretainedValue(), level + 1)) }
        }
        return deepest
    }
}
