/// Per-node state flags for the update passes.
struct NodeFlags: OptionSet {
    let rawValue: UInt32
    static let needsTraitUpdate = NodeFlags(rawValue: 1 << 0)
    static let subtreeNeedsTraitUpdate = NodeFlags(rawValue: 1 << 1)
    static let needsLayout = NodeFlags(rawValue: 1 << 2)
    static let subtreeNeedsLayout = NodeFlags(rawValue: 1 << 3)
    static let needsDisplay = NodeFlags(rawValue: 1 << 4)
    static let subtreeNeedsDisplay = NodeFlags(rawValue: 1 << 5)
    /// The node was updated at least once (its collection is no longer the initial defaults).
    static let hasUpdated = NodeFlags(rawValue: 1 << 6)
    /// A view with a dynamic background or tint color (R9 redraw).
    static let hasDynamicColor = NodeFlags(rawValue: 1 << 7)
    /// Call `didFirstUpdateTraits` after the node's first trait update (hosting views).
    static let wantsFirstUpdateCallback = NodeFlags(rawValue: 1 << 8)
    /// The node is an instance of an engine class itself, not of a Swift subclass: it has no
    /// `traitCollectionDidChange` override, so the update pass need not call it.
    static let engineClass = NodeFlags(rawValue: 1 << 9)
    /// Call `internalTraitsDidChange` when the collection changes (hosting views).
    static let wantsInternalTraitChange = NodeFlags(rawValue: 1 << 10)
    /// A binding wraps the node (its scripted methods may want callbacks).
    static let hasBinding = NodeFlags(rawValue: 1 << 11)
    /// The node owns its slot (see `CollectionSlot`).
    static let ownsSlot = NodeFlags(rawValue: 1 << 12)
    /// This node or one below it must be visited whenever its parent's collection changes,
    /// whatever changed: it owns a slot (its collection is computed, not shared) or reacts to
    /// every change (a Swift subclass, a dynamic color, a hosting view).
    static let subtreeVisitOnAnyChange = NodeFlags(rawValue: 1 << 13)
    /// This node or one below it has a binding, which reacts to every change once a script
    /// declares `traitCollectionDidChange` (`BindingHints`).
    static let subtreeHasBinding = NodeFlags(rawValue: 1 << 14)
    /// The node's entry in its trait parent's children is quiet (`TraitChild`).
    static let quietInParent = NodeFlags(rawValue: 1 << 15)
    static let needsUpdateConstraints = NodeFlags(rawValue: 1 << 16)
    static let subtreeNeedsUpdateConstraints = NodeFlags(rawValue: 1 << 17)
    /// The node is a `Window` (`enclosingWindow` tests this instead of casting).
    static let isWindow = NodeFlags(rawValue: 1 << 18)
}
