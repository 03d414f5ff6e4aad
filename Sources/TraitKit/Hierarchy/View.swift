/// A view (R4): inherits from its superview, or from its view controller when it is one's view.
open class View: TraitEnvironment {
    /// The view this one is a subview of (`addSubview` sets it).
    public private(set) var superview: View? {
        get { superviewLink?.takeUnretainedValue() }
        set { superviewLink = newValue.map(Unmanaged.passUnretained) }
    }
    /// `superview` and `viewController`, unretained (a superview keeps its subviews, a
    /// controller its view). `Unmanaged`, as `parentLink`: testing or borrowing a link costs
    /// no retain and release, which an `unowned(unsafe)` load into a local does.
    @exclusivity(unchecked) private var superviewLink: Unmanaged<View>?
    @exclusivity(unchecked) private var controllerLink: Unmanaged<ViewController>?
    /// The subviews, back to front.
    public var subviews: [View] { subviewSlots.compactMap { $0 } }
    /// How many subviews there are.
    public var subviewCount: Int { subviewSlots.count - Int(subviewLayout.holes) }
    /// The subviews, with nil where one was removed: as `traitChildren` keeps tombstones
    /// (`removeTraitChild`), so that removing a subview moves none of its siblings.
    @exclusivity(unchecked) private var subviewSlots: ContiguousArray<View?> = []
    @exclusivity(unchecked) private var subviewLayout = HoledArray.Layout()
    /// The view controller whose `view` this is, if any.
    public internal(set) var viewController: ViewController? {
        get { controllerLink?.takeUnretainedValue() }
        set { controllerLink = newValue.map(Unmanaged.passUnretained) }
    }

    /// A dynamic background color makes the view redraw on color-appearance changes (R9).
    public var backgroundColor: Color? {
        get { colors?.background }
        set { colorsForWriting.background = newValue; colorsDidChange() }
    }
    /// The tint set on this view itself; nil inherits the superview's (`tintColor`).
    public internal(set) var ownTintColor: Color? {
        get { colors?.tint }
        set { colorsForWriting.tint = newValue; colorsDidChange() }
    }
    /// The colors set on this view, out of line: most views set none, and two inline
    /// references would make every view a size class larger.
    @exclusivity(unchecked) private var colors: Colors?
    private final class Colors {
        var background: Color?
        var tint: Color?
    }
    private var colorsForWriting: Colors {
        if let colors { return colors }
        let made = Colors()
        colors = made
        return made
    }

    /// A view, laid out and drawn at its first update.
    public override init(name: String? = nil) {
        super.init(name: name)
        flags.insert([.needsLayout, .needsDisplay, .needsUpdateConstraints])
    }

    deinit {
        for case let subview? in subviewSlots {
            subview.superview = nil
            subview.ownerDidChange()
        }
    }

    open override var owner: AnyObject? { superview ?? viewController }

    /// The view's overrides (R4): they apply to it and everything below it.
    public var traitOverrides: TraitOverrides { TraitOverrides(node: self) }

    /// The same storage as `traitOverrides.userInterfaceStyle` (R5).
    public var overrideUserInterfaceStyle: UserInterfaceStyle {
        get { traitOverrides[TraitUserInterfaceStyle.self] ?? .unspecified }
        set { setOverrideUserInterfaceStyle(newValue) }
    }

    /// The window this view is in, if any.
    public var window: Window? { enclosingWindow }

    // MARK: Structure

    /// Adds `view` as the last subview, moving it from any previous superview.
    public func addSubview(_ view: View) throws(TraitError) {
        try insertSubview(view, at: subviewCount)
    }

    /// Inserts `view` at `index` (clamped to the subview count), moving it if it is elsewhere.
    /// Refused for a window and for a presented controller's view: that view inherits through
    /// its presentation, so among these subviews it would have no trait child standing for it.
    public func insertSubview(_ view: View, at index: Int) throws(TraitError) {
        if view is Window { throw .invalidHierarchy("cannot add \(view.debugName) as a subview: a Window is a root") }
        // Only a presented controller's view has no representative.
        guard let moved = view.traitRepresentative else {
            throw .invalidHierarchy("cannot add \(view.debugName) to \(debugName): it is the view of "
                                    + "\(view.viewController!.debugName), which is presented (dismiss it first)")
        }
        // A view with nothing below it, what most inserts place, is no one's ancestor: the
        // walks up from here, each as long as this view is deep, are skipped for it.
        let mayBeAncestor = !view.traitChildren.isEmpty || !view.subviewSlots.isEmpty
        if view === self || mayBeAncestor && (hasTraitAncestor(view) || hasSuperviewAncestor(view)) {
            throw .cycle(node: debugName, ancestor: view.debugName)
        }
        try HierarchyDepth.check(placing: moved, atLevel: level + 1, under: self)
        place(view, at: index)
    }

    /// Inserts `view` at `index` once the checks passed. A window places its root controller's
    /// view this way: a window is a root, so no cycle can form, and the levels it adds above
    /// the controller are the ones `HierarchyDepth.limit` leaves room for.
    func place(_ view: View, at index: Int) {
        let representative = view.traitRepresentative
        // `Appearance.mayHoldControllers(representative ?? view)`, without a cast: the
        // representative is the view's controller, or the view, or nil when it is presented.
        let watch = view.controllerLink != nil && representative != nil || !view.traitChildren.isEmpty
        let oldWindow = watch ? view.window : nil
        view.detachFromSuperview()
        let at = insertSubviewSlot(view, at: index)
        representative?.setTraitParent(self, at: at)
        view.ownerDidChange()
        setNeedsLayout()
        if watch { Appearance.windowChanged(for: representative ?? view, from: oldWindow, to: view.window) }
    }

    /// Puts `view`, which has no superview, among the subviews at `index` (clamped); returns
    /// the index. Its trait parent is the caller's to set.
    @discardableResult func insertSubviewSlot(_ view: View, at index: Int) -> Int {
        let at = Swift.max(0, Swift.min(index, subviewCount))
        _ = HoledArray.insert(view, at: at, &subviewSlots, &subviewLayout, hole: nil, isHole: { $0 == nil })
        view.superview = self
        return at
    }

    /// Removes this view from its superview.
    public func removeFromSuperview() {
        guard superviewLink != nil else { return }
        // `Appearance.mayHoldControllers(viewController ?? self)`, without a retain or a cast.
        let watch = controllerLink != nil || !traitChildren.isEmpty
        let oldWindow = watch ? window : nil
        detachFromSuperview()
        ownerDidChange()
        if watch { Appearance.windowChanged(for: viewController ?? self, from: oldWindow, to: window) }
    }

    /// Puts this view, no longer a controller's, under its superview in the trait tree, in
    /// its own place among the subviews (no trait parent when it has no superview).
    func inheritFromSuperview() {
        setTraitParent(superview, at: superview?.index(ofSubview: self))
    }

    /// Takes this view out of its superview's subviews and its representative out of the
    /// superview's trait children, with no appearance notes.
    func detachFromSuperview() {
        guard let link = superviewLink else { return }
        link._withUnsafeGuaranteedRef { superview in
            if let i = superview.indexOfSubview(self) { superview.removeSubviewSlot(at: i) }
            superviewLink = nil
            superview.setNeedsLayout()
        }
        traitRepresentative?.setTraitParent(nil)
    }

    /// The node that stands for this view among its superview's trait children: its view
    /// controller, or the view itself when it has none; nil when the controller is presented
    /// (its view is then in no superview, `insertSubview` refuses it).
    var traitRepresentative: TraitEnvironment? {
        guard let controller = controllerLink else { return self }
        let presented = controller._withUnsafeGuaranteedRef { $0.presentationController != nil }
        return presented ? nil : controller.takeUnretainedValue()
    }

    /// The first result `body` gives for a subview, back to front; nil when none gives one.
    /// No list is made (a search through a subtree made one per view); a change `body`
    /// makes to the subviews is not seen by the walk, which goes on over the slots it began with.
    public func firstSubview<T>(_ body: (View) throws -> T?) rethrows -> T? {
        for case let subview? in subviewSlots {
            if let found = try body(subview) { return found }
        }
        return nil
    }

    /// The first result `body` gives for a subview before `view`, nearest first; nil when
    /// none gives one or `view` is not a subview. `view` is found from its hint, as for its
    /// removal, not by a scan of every sibling.
    public func firstSubview<T>(before view: View, _ body: (View) throws -> T?) rethrows -> T? {
        guard view.superview === self, let i = indexOfSubview(view) else { return nil }
        for case let subview? in subviewSlots[..<i].reversed() {
            if let found = try body(subview) { return found }
        }
        return nil
    }

    /// Where `view` is among the subviews, as `subviews` counts; nil when it is not one. Found
    /// from its hint, not by a scan of the siblings; the holes before it are counted only when
    /// some of them are not the room at the front.
    public func index(ofSubview view: View) -> Int? {
        guard view.superview === self, let slot = indexOfSubview(view) else { return nil }
        guard subviewLayout.holes > subviewLayout.front else { return slot - Int(subviewLayout.front) }
        var holes = 0
        for i in 0..<slot where subviewSlots[i] == nil { holes += 1 }
        return slot - holes
    }

    /// Where `view` is in the subview slots, looking outward from where its hint points.
    private func indexOfSubview(_ view: View) -> Int? {
        indexOutward(from: subviewHint(view), count: subviewSlots.count) { subviewSlots[$0] === view }
    }

    /// Where the subview `view` should be: a view placed by `insertSubview` has the same place
    /// among the subview slots as its representative (itself, or its controller) among the
    /// trait children, which `quietIndexHint` remembers. A controller's view's own hint is its
    /// place under its controller: looking from there for a controller's view among many
    /// siblings made removing it cost a step per sibling.
    func subviewHint(_ view: View) -> Int {
        childIndex(near: (view.traitRepresentative ?? view).quietIndexHint)
    }

    /// Empties the slot at `i` (`HoledArray`); a compaction gives each subview moved its new
    /// index as hint.
    private func removeSubviewSlot(at i: Int) {
        _ = HoledArray.remove(at: i, &subviewSlots, &subviewLayout, hole: nil, isHole: { $0 == nil }) { subview, index in
            subview?.quietIndexHint = UInt32(truncatingIfNeeded: index)
        }
    }

    private func hasSuperviewAncestor(_ view: View) -> Bool {
        var current = superviewLink
        while let c = current {
            if c.toOpaque() == Unmanaged.passUnretained(view).toOpaque() { return true }
            current = c._withUnsafeGuaranteedRef { $0.superviewLink }
        }
        return false
    }

    // MARK: Layout and display (R8)

    public override func setNeedsLayout() {
        flags.insert(.needsLayout)
        markAncestors(.subtreeNeedsLayout)
    }

    public override func setNeedsDisplay() {
        flags.insert(.needsDisplay)
        markAncestors(.subtreeNeedsDisplay)
    }

    /// Asks for `updateConstraints` in the next update's constraint pass (before layout).
    public func setNeedsUpdateConstraints() {
        flags.insert(.needsUpdateConstraints)
        markAncestors(.subtreeNeedsUpdateConstraints)
    }

    /// Override to update constraints; runs before layout, subviews before their superview,
    /// on a view's first update and after `setNeedsUpdateConstraints`.
    open func updateConstraints() {}

    /// Runs the constraint pass in this view's subtree now.
    public func updateConstraintsIfNeeded() throws {
        try updateTraitsIfNeeded()
        let context = UpdateContext()
        LayoutPass.updateConstraints(self, context: context)
        try context.rethrow()
    }

    /// Override to lay out subviews; traits are up to date and `TraitCollection.current` is set.
    open func layoutSubviews() {}

    /// Override to draw; runs after `setNeedsDisplay` (and once at first display).
    open func draw() {}

    /// Override to react when the tint this view shows changes (`setTintColor` here or above).
    open func tintColorDidChange() {}

    /// Updates traits and performs any pending layout in this view's subtree now.
    public func layoutIfNeeded() throws {
        try updateTraitsIfNeeded()
        let context = UpdateContext()
        LayoutPass.layout(self, context: context)
        try context.rethrow()
    }
}

extension TraitEnvironment {
    func setOverrideUserInterfaceStyle(_ style: UserInterfaceStyle) {
        if style == .unspecified {
            removeOverride(id: SystemTraits.userInterfaceStyle.id)
        } else {
            setOverride(style.traitValue, id: SystemTraits.userInterfaceStyle.id)
        }
    }

    /// The window above this node in the trait tree. By a flag, not a cast per level: every
    /// insert and removal asks twice, from as deep as the view is.
    var enclosingWindow: Window? {
        firstInTraitChain { $0.flags.contains(.isWindow) }.map { unsafeDowncast($0, to: Window.self) }
    }

    /// Brings this node's traits (and its subtree's) up to date now; callbacks run before it
    /// returns, and the first error one raised is rethrown (R6, R7).
    public func updateTraitsIfNeeded() throws {
        try StackRoom.check()
        let context = UpdateContext()
        updateTraitsNow(context: context)
        try context.rethrow()
    }
}
