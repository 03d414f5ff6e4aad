/// The base of every node that has a trait collection: Screen, WindowScene, Window,
/// PresentationController, ViewController and View (UIKit's `UITraitEnvironment`).
///
/// Nodes form one trait tree (R4): each has a trait parent and trait children, kept in step with
/// the structural relations (superview, view controller, presentation) by the subclasses. The
/// children array holds unowned references: ownership stays with the structural relations, and
/// the update pass walks the tree without reference counting.
///
/// A hierarchy is confined to the thread that made it (nodes are not `Sendable`).
///
/// The properties the update pass touches on every node, and those every insertion, removal
/// and construction touches, are `@exclusivity(unchecked)`: the engine never holds an `inout`
/// access to them across a call, so the dynamic exclusivity check (a thread-local access set:
/// a sixth of a flush, a fifth of an `addSubview`) could never fire.
open class TraitEnvironment: CustomStringConvertible {
    // The fields the trait walk reads come first and together: it reads them for every child
    // of a node it visits, to decide whether to enter it, so they should share a cache line.

    /// The slot holding this node's collection, retained: its own when it owns one, else its
    /// parent's (see `CollectionSlot`). Declared first: bindings with a C fast path read it at
    /// `collectionPointerOffsets`.
    @exclusivity(unchecked) var slotRef: Unmanaged<CollectionSlot> = .passRetained(.defaults)
    @exclusivity(unchecked) var traitChildren: ContiguousArray<TraitChild> = []
    @exclusivity(unchecked) var flags: NodeFlags = [.needsTraitUpdate]
    /// The epoch of the last pass that visited this node (see `UpdateContext`).
    @exclusivity(unchecked) var visitEpoch: UInt32 = 0
    /// The version of the parent's slot this node last took in (`CollectionSlot.version`).
    @exclusivity(unchecked) var seenVersion: UInt32 = 0
    /// Where this node's entry was in its parent's `traitChildren` when it was placed there,
    /// marked quiet or compacted, less the parent's `traitChildOrigin` then (a hint:
    /// an insertion in the middle moves entries; see `TraitChild`). Removal looks outward
    /// from it, so taking a child out of a long list does not scan the list.
    @exclusivity(unchecked) var quietIndexHint: UInt32 = 0
    /// `interestSummary` of this node and every node below it, ORed: the walk does not enter a
    /// subtree where no node cares about the traits that changed (see `TraitRegions.swift`).
    /// May name traits nobody below cares about any more, never misses one. Next to `flags`
    /// and `visitEpoch`: the walk reads all three for every child it scans.
    @exclusivity(unchecked) var subtreeInterest: UInt64 = 0
    @exclusivity(unchecked) var overrideStorage: TraitOverrideStorage?
    /// The traits some registration, layout or draw of this node depends on, folded to 64 bits
    /// (`TraitSet.folded`), kept inline so the pass tells "nothing here cares" without loading
    /// `extras`: unrelated registrations then cost one AND per changed node. A hit is
    /// confirmed in `extras` (traits 64 ids apart share a bit).
    @exclusivity(unchecked) var interestSummary: UInt64 = 0
    /// Rarely used state (registrations, automatic trait tracking), allocated on first use and never
    /// replaced: it lives as long as the node, so code that keeps the node alive may read it
    /// unretained (`TraitUpdatePass.traitsDidChange`).
    @exclusivity(unchecked) private(set) var extras: NodeExtras?
    /// The trait parent, unretained: a node lives while its structural owner keeps it, and a
    /// parent clears its children's links when it goes. `Unmanaged`, not `unowned(unsafe)`, so
    /// that walks up the tree load each link without a retain and a release.
    @exclusivity(unchecked) var parentLink: Unmanaged<TraitEnvironment>?
    /// How many entries of `traitChildren` are tombstones, and how many of those are room
    /// before the first child (`HoledArray`). After the fields the walk reads, so as not to
    /// push them apart.
    @exclusivity(unchecked) var traitChildLayout = HoledArray.Layout()
    /// Counts the changes to `traitChildren` that move entries (an insertion before the end,
    /// a compaction): a walk over the children that sees it change starts its scan again, as
    /// an entry it has not visited may now sit before its position.
    @exclusivity(unchecked) var traitChildMoves: UInt32 = 0
    /// How far the room opened at the front of `traitChildren` (`HoledArray`) has shifted
    /// every entry since the last compaction: a child's hint is its index less the origin
    /// when the hint was taken. A view's subview slots move with its trait children, so their
    /// hints are the same.
    @exclusivity(unchecked) var traitChildOrigin: UInt32 = 0

    /// The collection as of the last update (R6): mutations show only after an update.
    public var traitCollection: TraitCollection {
        slotRef._withUnsafeGuaranteedRef { $0.collectionRef.takeUnretainedValue() }
    }

    /// A name for printing, dumps and error messages.
    @exclusivity(unchecked) public var name: String?

    /// The class name shown in dumps and messages; bindings set their own subclass names.
    public var className: String {
        get { classNameOverride ?? nodeClassName(of: Swift.type(of: self)) }
        set { classNameOverride = newValue }
    }
    /// Set by bindings (script subclasses) and hosting; otherwise an engine class's name, or
    /// for a Swift subclass its type's, made when asked for.
    private var classNameOverride: String?

    /// A node outside any hierarchy, with an optional name for messages and trees.
    public init(name: String? = nil) {
        self.name = name
        let type = ObjectIdentifier(Swift.type(of: self))
        if engineClasses.contains(type) { flags.insert(.engineClass) } else { flags.insert(.subtreeVisitOnAnyChange) }
    }

    /// Where a node's current collection sits, for a binding's C code that answers
    /// `node.traitCollection` without calling Swift: the slot pointer at `slot` in the node,
    /// the collection pointer at `collection` in the slot. Nil when this build does not lay
    /// them out as expected (checked once on a live node), and the binding then takes its
    /// Swift path. Read only on the node's own thread.
    public static let collectionPointerOffsets: (slot: Int, collection: Int)? = {
        let probe = View()
        probe.ownSlot(TraitCollection(values: []))
        let offset = 16  // after the object header: the first stored property
        let node = UnsafeRawPointer(Unmanaged.passUnretained(probe).toOpaque())
        let slot = node.load(fromByteOffset: offset, as: UnsafeRawPointer.self)
        guard slot == UnsafeRawPointer(probe.slotRef.toOpaque()) else { return nil }
        let stored = slot.load(fromByteOffset: offset, as: UnsafeRawPointer.self)
        return stored == UnsafeRawPointer(Unmanaged.passUnretained(probe.traitCollection).toOpaque())
            ? (offset, offset) : nil
    }()

    deinit {
        // Children keep their collections. Nobody writes a slot once its owner is gone, so
        // only a node freed while its trait parent lives (a controller's view can be) and
        // sharing a slot has its children keep what they have (`keepCollection`). In a tree
        // being freed every node has lost its parent or owns its slot, so freeing it costs
        // each node once, not once per level above it.
        let keep = !flags.contains(.ownsSlot) && traitParent != nil
        for child in traitChildren where !child.isTombstone {
            child.node._withUnsafeGuaranteedRef {
                $0.traitParent = nil
                $0.flags.remove(.quietInParent)
                if keep { $0.keepCollection() }
            }
        }
        traitParent?.removeTraitChild(self)
        slotRef.release()
    }

    /// `View 'header'`, or just the class name when unnamed: how messages name a node.
    public var debugName: String {
        if let name { return "\(className) '\(clipped(name))'" }
        return className
    }

    open var description: String { "<\(debugName)>" }

    /// The node this one inherits its traits from (R4), or nil at a root.
    public var traitParentNode: TraitEnvironment? { traitParent }

    var traitParent: TraitEnvironment? {
        get { parentLink?.takeUnretainedValue() }
        set { parentLink = newValue.map(Unmanaged.passUnretained) }
    }

    /// The nodes that inherit from this one, in update order.
    public var traitChildNodes: [TraitEnvironment] {
        traitChildren.compactMap { $0.isTombstone ? nil : $0.takeUnretainedValue() }
    }

    /// The node that owns this one structurally (superview, view controller, scene, ...);
    /// bindings mirror it to keep their wrappers alive exactly as long as the node is.
    open var owner: AnyObject? { nil }

    /// The binding's per-node object, if a binding wraps this node. Kept in the node, not in
    /// `extras`: every node a script makes has one, and extras hold what most nodes lack.
    @exclusivity(unchecked) public var binding: (any NodeBinding)? {
        didSet {
            if binding == nil { flags.remove(.hasBinding) } else { flags.insert(.hasBinding); summaryDidGrow() }
        }
    }

    /// Where the binding that made this node's script object keeps it (the binding's own
    /// number; 0 when none does): it finds the object by index, not by hashing the node's
    /// address. The engine never reads it.
    @exclusivity(unchecked) public var bindingSlot: UInt64 = 0

    /// Tells the binding the structural owner changed.
    func ownerDidChange() {
        binding?.ownerDidChange(self)
    }

    /// Recomputes `interestSummary` after a mask in `extras` changed.
    func extrasMasksDidChange() {
        interestSummary = extras?.interestFold ?? 0
        summaryDidGrow()
    }

    func ensureExtras() -> NodeExtras {
        if let extras { return extras }
        let made = NodeExtras()
        extras = made
        return made
    }

    /// Whether this kind of node accepts overrides (a Screen does not).
    func checkCanOverride() throws(TraitError) {}

    // MARK: Trait tree links

    /// Moves this node under `parent` in the trait tree, at `index` among its children
    /// (the end when nil), and marks it for a full recompute.
    func setTraitParent(_ parent: TraitEnvironment?, at index: Int? = nil) {
        // R7: a change below the node whose callback runs is picked up in the same pass, any
        // other in the next iteration. A node put elsewhere, or one the running walk has gone
        // past, is done for this pass (`epochPassing`). What it keeps is what its old place
        // gave it: a node the walk had not reached keeps what it had when the pass began,
        // though it is put elsewhere, as a removed one does.
        let passedIn = CurrentSlot.unretainedBox._withUnsafeGuaranteedRef { box in
            box.updateDepth > 0 ? box.update?.epochPassing(self, movingUnder: parent) : nil
        }
        keepCollection()
        if let passedIn { visitEpoch = passedIn }
        if let old = traitParent { old.removeTraitChild(self) }
        traitParent = parent
        if let parent { quietIndexHint = parent.insertTraitChild(self, at: index) }
        markNeedsTraitUpdate()
        propagatePendingFlagsUp()
        summaryDidGrow()
    }

    /// Puts `child` at `index` among the children (the end when nil or past the last);
    /// returns its hint.
    private func insertTraitChild(_ child: TraitEnvironment, at index: Int?) -> UInt32 {
        let (at, shift) = HoledArray.insert(TraitChild(child), at: index ?? .max, &traitChildren, &traitChildLayout,
                                            hole: .tombstone, isHole: { $0.isTombstone })
        traitChildOrigin &+= shift
        if at != traitChildren.count - 1 { traitChildMoves &+= 1 }
        return childHint(at: at)
    }

    /// The hint for a child whose entry is at `index` (`quietIndexHint`).
    func childHint(at index: Int) -> UInt32 { UInt32(truncatingIfNeeded: index) &- traitChildOrigin }

    /// Where the entry of a child whose hint is `hint` was put, shifts since included.
    func childIndex(near hint: UInt32) -> Int { Int(hint &+ traitChildOrigin) }

    /// Counts the steps a lookup from a hint took: insertions in the middle move the entries
    /// after them without telling them, so many of them put every hint after theirs further
    /// off, and tearing a list built that way down would cost a step per sibling per removal.
    /// Once the lookups have taken as many steps as there are entries, the hints are made
    /// exact: that costs a step per entry, no more than the steps already paid for it.
    @inline(__always)
    func hintWasOff(by distance: Int) {
        guard distance != 0 else { return }
        let extras = ensureExtras()
        extras.staleHintSteps += distance
        if extras.staleHintSteps >= traitChildren.count { renumberChildHints(extras) }
    }

    /// Gives every child its entry's index as hint.
    private func renumberChildHints(_ extras: NodeExtras) {
        extras.staleHintSteps = 0
        for i in traitChildren.indices where !traitChildren[i].isTombstone {
            let hint = childHint(at: i)
            traitChildren[i].node._withUnsafeGuaranteedRef { $0.quietIndexHint = hint }
        }
    }

    /// Takes `child` out of `traitChildren`: its entry becomes a tombstone, which every walk
    /// passes over (`HoledArray`); a compaction gives each child moved its new index as hint.
    func removeTraitChild(_ child: TraitEnvironment) {
        guard let i = indexOfChild(child) else { return }
        child.flags.remove(.quietInParent)
        let compacted = HoledArray.remove(at: i, &traitChildren, &traitChildLayout, hole: .tombstone,
                                          isHole: { $0.isTombstone }) { entry, index in
            entry.node._withUnsafeGuaranteedRef { $0.quietIndexHint = UInt32(truncatingIfNeeded: index) }
        }
        if compacted {
            traitChildMoves &+= 1
            traitChildOrigin = 0
        }
    }

    /// The first of this node and its trait ancestors, nearest first, for which `found` is
    /// true. The walk retains no node (a retain and a release per level, for walks every
    /// insertion and removal makes several of): a trait parent lives while it has children,
    /// and `found` must not free any node.
    @inline(__always)
    func firstInTraitChain(where found: (TraitEnvironment) -> Bool) -> TraitEnvironment? {
        var current = Unmanaged.passUnretained(self)
        while true {
            if current._withUnsafeGuaranteedRef(found) { return current.takeUnretainedValue() }
            guard let parent = current._withUnsafeGuaranteedRef({ $0.parentLink }) else { return nil }
            current = parent
        }
    }

    /// True when `node` is this node or one of its trait ancestors.
    func hasTraitAncestor(_ node: TraitEnvironment) -> Bool {
        firstInTraitChain { $0 === node } != nil
    }

    /// The root of this node's trait tree (a Screen when the node is on one).
    var traitRoot: TraitEnvironment {
        var current = self
        while let parent = current.traitParent { current = parent }
        return current
    }

    // MARK: Dirty marking (R6)

    /// Marks this node's own collection for recomputation at the next update.
    public func markNeedsTraitUpdate() {
        flags.insert(.needsTraitUpdate)
        wakeInParent()
        markAncestors(.subtreeNeedsTraitUpdate)
    }

    /// Sets `flag` on every ancestor, stopping at the first one that already has it.
    func markAncestors(_ flag: NodeFlags) {
        var current = parentLink
        while let link = current {
            current = link._withUnsafeGuaranteedRef { node in
                if node.flags.contains(flag) { return nil }
                node.flags.insert(flag)
                node.wakeInParent()
                return node.parentLink
            }
        }
    }

    /// After a move, tells the new ancestors about work pending in this subtree.
    func propagatePendingFlagsUp() {
        if flags.contains(.needsTraitUpdate) || flags.contains(.subtreeNeedsTraitUpdate) {
            markAncestors(.subtreeNeedsTraitUpdate)
        }
        if flags.contains(.needsLayout) || flags.contains(.subtreeNeedsLayout) { markAncestors(.subtreeNeedsLayout) }
        if flags.contains(.needsDisplay) || flags.contains(.subtreeNeedsDisplay) { markAncestors(.subtreeNeedsDisplay) }
        if !flags.isDisjoint(with: [.needsUpdateConstraints, .subtreeNeedsUpdateConstraints]) {
            markAncestors(.subtreeNeedsUpdateConstraints)
        }
    }

    // MARK: Overrides (R5)

    func setOverride(_ value: TraitValue, id: Int) {
        if TraitOverrideStorage.set(value, id: id, in: &overrideStorage) { markNeedsTraitUpdate() }
    }

    func removeOverride(id: Int) {
        guard let storage = overrideStorage, storage.remove(id) else { return }
        if storage.isEmpty { overrideStorage = nil }
        markNeedsTraitUpdate()
    }

    /// Whether `collection(inheriting:)` returns its argument as it is: nothing of this node's
    /// own applies. A class that overrides that method says no here too.
    var inheritsUnchanged: Bool { overrideStorage == nil }

    /// The traits in which `collection(inheriting:)` can differ from its argument (this
    /// node's overrides), or nil when the class cannot say (it overrides that method too). An
    /// update compares only these for a node that had its parent's collection before.
    var ownTraitMask: TraitSet? { overrideStorage?.mask ?? TraitSet() }

    /// The collection this node has when its parent has `parentCollection`.
    func collection(inheriting parentCollection: TraitCollection) -> TraitCollection {
        guard let overrideStorage else { return parentCollection }
        return CurrentSlot.unretainedBox._withUnsafeGuaranteedRef { box in
            guard box.updateDepth > 0 else { return parentCollection.applying(overrideStorage) }
            return box.overrideResults.applying(overrideStorage, to: parentCollection)
        }
    }

    /// What a root node starts from: all defaults (a Screen uses its system traits).
    func rootCollection() -> TraitCollection { .defaults }

    // MARK: Callbacks into the node (R7, R8)

    /// Asks for a layout pass (views; a view controller forwards to its view).
    open func setNeedsLayout() {}

    /// Asks for a draw pass (views; a view controller forwards to its view).
    open func setNeedsDisplay() {}

    /// How many of a binding's lifecycle methods may run inside one another: one whose code
    /// starts another (`willMoveToParent` calling `addChild`, which calls `willMoveToParent`).
    public static let maxCallbackDepth = 32

    /// Runs the binding's method for `event` if it has one, else `fallback` (the Swift method).
    /// `argument` is what the method gets after `self` (the previous collection, the parent).
    ///
    /// A method that starts itself again never ends: UIKit recurses until the stack runs out,
    /// and a binding's method that catches the error and tries once more at each level (two
    /// `addChild` calls in a `willMoveToParent`) takes time exponential in the depth the
    /// binding's own stack allows. So a method `maxCallbackDepth` deep is refused, and so is
    /// every one after it until the outermost returns, as a tint that never settles is.
    func dispatch(_ event: NodeEvent, argument: AnyObject? = nil, fallback: () -> Void) throws {
        guard let binding else { return fallback() }
        let box = CurrentSlot.box
        guard box.callbacks.mayEnter(limit: Self.maxCallbackDepth) else {
            throw TraitError.callbacksDidNotSettle(method: event.rawValue, node: debugName, depth: Self.maxCallbackDepth)
        }
        box.callbacks.enter()
        defer { box.callbacks.leave() }
        if try binding.invoke(event, on: self, argument: argument) { return }
        fallback()
    }

    /// Engine classes that react to their own trait changes (hosting views) override this;
    /// unlike the public callback it may throw, and its error reaches the update's caller.
    func internalTraitsDidChange() throws {}

    /// Called after the first trait update of a node flagged `wantsFirstUpdateCallback`.
    func didFirstUpdateTraits() throws {}

    /// UIKit's legacy `traitCollectionDidChange(_:)`: called on any change of the collection.
    open func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {}
}

/// The engine's own node classes (none overrides `traitCollectionDidChange`).
private let engineClassTypes: [TraitEnvironment.Type] = [
    View.self, Window.self, ViewController.self, WindowScene.self, Screen.self, PresentationController.self,
    ScrollView.self, TableView.self, TextView.self, Label.self, Button.self, StackView.self,
    IntrospectionMarker.self, HostingView.self, HostingController.self,
]
/// Their identities, which every node made is looked up in. A short list: a scan of pointer
/// compares beats hashing into a set.
private let engineClasses = engineClassTypes.map(ObjectIdentifier.init)
/// Their names, in the same order, made once: `String(describing:)` on a type costs thousands
/// of instructions, and `ancestor` and `isKindOf` ask for the name at every level they climb.
private let engineClassNames = engineClassTypes.map { String(describing: $0) }

/// The name of the node class `type`: an engine class's (or the root class's) without
/// reflection, another's (a Swift subclass's) by `String(describing:)`.
func nodeClassName(of type: AnyClass) -> String {
    if let i = engineClasses.firstIndex(of: ObjectIdentifier(type)) { return engineClassNames[i] }
    return type == TraitEnvironment.self ? "TraitEnvironment" : String(describing: type)
}
