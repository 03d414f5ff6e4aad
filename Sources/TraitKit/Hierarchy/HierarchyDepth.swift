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
        // A leaf, what most inserts place, needs no walk (and no allocation). The walk takes
        // no reference per node: placing a built tree in a window walks every node of it.
        let height = subtree.traitChildren.isEmpty ? 1 : HierarchyDepth.height(of: Unmanaged.passUnretained(subtree), upTo: room) { node, visit in
            node._withUnsafeGuaranteedRef { for entry in $0.traitChildren where !entry.isTombstone { visit(entry.node) } }
        }
        if room < 1 || height > room {
            throw .tooDeep(node: subtree.debugName, parent: parent.debugName, limit: limit)
        }
    }

    /// Throws when adding `child`'s containment tree under `parent` would nest controllers
    /// deeper than `limit`.
    static func check(adding child: ViewController, under parent: ViewController) throws(TraitError) {
        let room = limit - chainLength(from: parent) { $0.parent }
        let height = HierarchyDepth.height(of: child, upTo: room) { node, visit in node.children.forEach(visit) }
        if room < 1 || height > room {
            throw .tooDeep(node: child.debugName, parent: parent.debugName, limit: limit)
        }
    }

    /// How many nodes the chain from `node` along `next` has, `node` included. Callers pass a
    /// closure, not a key path: inlined, the loop is a load per level, where a key path as
    /// `next` costs a projection call per level (every insert counts its parent's level).
    @inline(__always)
    static func chainLength<Node: AnyObject>(from node: Node, _ next: (Node) -> Node?) -> Int {
        var count = 1
        var current = next(node)
        while let link = current {
            count += 1
            current = next(link)
        }
        return count
    }

    /// The levels from `root` down to its deepest descendant (1 for a leaf), counted without
    /// recursion and no further than `bound + 1`: callers only ask whether it fits in `bound`.
    static func height<Node>(of root: Node, upTo bound: Int,
                             children: (Node, (Node) -> Void) -> Void) -> Int {
        var deepest = 1
        var stack: [(node: Node, level: Int)] = [(root, 1)]
        while let (node, level) = stack.popLast() {
            deepest = Swift.max(deepest, level)
            if deepest > bound { break }
            children(node) { stack.append(($0, level + 1)) }
        }
        return deepest
    }
}

extension TraitEnvironment {
    /// This node's level in its trait tree: 1 at a root. Counted along the chain of parents
    /// unretained (`firstInTraitChain`): every insert counts its parent's level, from as deep
    /// as the parent is.
    var level: Int {
        var count = 0
        _ = firstInTraitChain { _ in count += 1; return false }
        return count
    }
}

extension ViewController {
    /// How many controllers present in a chain down to this one, itself included.
    var presentationDepth: Int { HierarchyDepth.chainLength(from: self) { $0.presentingViewController } }
}
