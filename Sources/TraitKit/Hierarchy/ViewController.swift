/// A view controller (R4, R8). In the iOS 17 unified flow it inherits from its view's
/// superview (or from its presentation controller when presented), and its view inherits
/// from it. A child controller whose view is not in the hierarchy sees no updates.
open class ViewController: TraitEnvironment {
    private var loadedView: View?
    /// The container this controller is a child of (`addChild`).
    public private(set) unowned(unsafe) var parent: ViewController?
    /// The child controllers, in the order they were added.
    public private(set) var children: [ViewController] = []
    /// The controller this one presents (`present`).
    public private(set) var presentedViewController: ViewController?
    /// The controller that presents this one.
    public private(set) unowned(unsafe) var presentingViewController: ViewController?
    /// The presentation this controller is shown in, while presented. Read for every view
    /// placed or removed (`View.traitRepresentative`), never held `inout` across a call.
    @exclusivity(unchecked) public internal(set) var presentationController: PresentationController?
    /// The window whose root this is.
    unowned(unsafe) var rootOfWindow: Window?
    var appearState = AppearState.disappeared
    /// UIKit's `isModalInPresentation`: a presented controller that refuses interactive dismissal.
    public var isModalInPresentation = false

    enum AppearState { case disappeared, appearing, appeared, disappearing }

    /// A controller whose view loads when first needed.
    public override init(name: String? = nil) {
        super.init(name: name)
    }

    deinit {
        for child in children { child.parent = nil; child.ownerDidChange() }
        if let presentedViewController {
            presentedViewController.presentingViewController = nil
        }
        if let view = loadedView {
            // The view outlives its controller only when a superview holds it: it then
            // inherits from that superview directly.
            view.viewController = nil
            view.inheritFromSuperview()
            view.ownerDidChange()
        }
    }

    open override var owner: AnyObject? { parent ?? presentingViewController ?? rootOfWindow }

    /// The controller's overrides (R4): they apply to it, its view and everything below.
    public var traitOverrides: TraitOverrides { TraitOverrides(node: self) }

    /// The same storage as `traitOverrides.userInterfaceStyle` (R5).
    public var overrideUserInterfaceStyle: UserInterfaceStyle {
        get { traitOverrides[TraitUserInterfaceStyle.self] ?? .unspecified }
        set { setOverrideUserInterfaceStyle(newValue) }
    }

    // MARK: The view (R8: lazy creation)

    /// Whether the view exists yet.
    public var isViewLoaded: Bool { loadedView != nil }

    /// The view, created on first access (`loadView`, then `viewDidLoad`).
    public var view: View {
        try? loadViewIfNeeded()
        return loadedView!
    }

    /// Replaces the view (UIKit's `view` setter). Refused for a window, for a view another
    /// controller has, for a view this controller inherits from (that would be a cycle), and,
    /// while this controller is presented, for a view in a superview (a presented controller's
    /// view has none, as `present` requires).
    public func setView(_ newView: View) throws(TraitError) {
        if newView === loadedView { return }
        if newView is Window {
            throw .invalidHierarchy("a Window cannot be the view of \(debugName): a Window is a root")
        }
        if presentationController != nil, let superview = newView.superview {
            throw .invalidHierarchy("\(newView.debugName) cannot be the view of \(debugName), which is presented: "
                                    + "it is in \(superview.debugName) (remove it from there first)")
        }
        if let owner = newView.viewController, owner !== self {
            throw .invalidHierarchy("\(newView.debugName) is already the view of \(owner.debugName)")
        }
        if hasTraitAncestor(newView) { throw .cycle(node: newView.debugName, ancestor: debugName) }
        // The view goes under this controller, which takes the view's place under its superview.
        let level = presentationController == nil ? newView.superview.map { $0.level + 1 } ?? self.level : self.level
        try HierarchyDepth.check(placing: newView, atLevel: level + 1, under: self)
        install(newView)
    }

    /// The view if loaded, without loading it.
    public var viewIfLoaded: View? { loadedView }

    /// Loads the view if needed; rethrows an error the binding's `loadView`/`viewDidLoad` raised
    /// (the view is loaded all the same).
    public func loadViewIfNeeded() throws {
        guard loadedView == nil else { return }
        var failure: (any Error)?
        do { try dispatch(.loadView) { loadView() } } catch { failure = error }
        if loadedView == nil { install(View()) }
        do { try dispatch(.viewDidLoad) { viewDidLoad() } } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// Override to create the view; the default makes a plain `View`.
    open func loadView() { install(View()) }

    /// Makes `newView` the view (R4): the old one, if it is in a superview, takes this
    /// controller's place among that superview's trait children, in its own place among the
    /// subviews; this controller takes the new view's place, or has no trait parent when the
    /// new view has no superview (unless it is presented: then it stays under its presentation).
    /// A window's root controller keeps its window: the new view becomes the window's content
    /// view in the old one's place, and the old one leaves the window.
    ///
    /// Each node goes straight to where it ends up, the controller before its new view: a
    /// callback that replaces a view mid-update (R7) has each picked up in this pass or the
    /// next as its new place says.
    func install(_ newView: View) {
        let old = loadedView === newView ? nil : loadedView
        if let old, let window = rootOfWindow, old.superview === window {
            return replaceContentView(of: window, old: old, with: newView)
        }
        if let old {
            old.viewController = nil
            old.inheritFromSuperview()
            old.ownerDidChange()
        }
        let superview = newView.superview, at = superview?.index(ofSubview: newView)
        loadedView = newView
        newView.viewController = self
        if presentationController == nil {
            // The new view leaves its superview's trait children first, so this controller
            // fills the hole it left and the trait children stay beside the subview slots.
            newView.setTraitParent(nil)
            setTraitParent(superview, at: at)
        }
        newView.setTraitParent(self)
        newView.ownerDidChange()
    }

    /// `install` for a window's root: this controller stays where it is in the window, the
    /// new view takes the old one's place among the window's subviews, and the old one leaves.
    private func replaceContentView(of window: Window, old: View, with newView: View) {
        let at = window.index(ofSubview: old) ?? 0
        old.viewController = nil
        old.removeFromSuperview()
        let from = newView.window
        newView.detachFromSuperview()
        loadedView = newView
        newView.viewController = self
        window.insertSubviewSlot(newView, at: at)
        newView.setTraitParent(self)
        newView.ownerDidChange()
        Appearance.windowChanged(for: newView, from: from, to: window)
    }

    // MARK: Lifecycle (R8): override in subclasses

    /// Called once, after the view loaded.
    open func viewDidLoad() {}
    /// Called before the view enters a window.
    open func viewWillAppear() {}
    /// Called when the view is in the hierarchy with up-to-date traits (iOS 17).
    open func viewIsAppearing() {}
    /// Called after the view entered a window.
    open func viewDidAppear() {}
    /// Called before the view leaves its window.
    open func viewWillDisappear() {}
    /// Called after the view left its window.
    open func viewDidDisappear() {}
    /// Called before the view lays out its subviews.
    open func viewWillLayoutSubviews() {}
    /// Called after the view laid out its subviews.
    open func viewDidLayoutSubviews() {}
    /// Called by `addChild` before the child is added. As in UIKit, a container calls
    /// `willMove(toParent: nil)` itself before `removeFromParent()`.
    open func willMove(toParent parent: ViewController?) {}
    /// Called by `removeFromParent` after the child is removed. As in UIKit, a container calls
    /// `didMove(toParent: self)` itself once it placed the child's view after `addChild`.
    open func didMove(toParent parent: ViewController?) {}

    public override func setNeedsLayout() { loadedView?.setNeedsLayout() }
    public override func setNeedsDisplay() { loadedView?.setNeedsDisplay() }

    /// The window this controller's content is in, if any.
    public var window: Window? { enclosingWindow }

    // MARK: Containment

    /// Adds a child controller (its view is placed separately, as in UIKit): calls the
    /// child's `willMove(toParent: self)` (and `didMove(toParent: nil)` when it leaves another
    /// parent), then adds it. A binding's error from those is rethrown once the child is added.
    public func addChild(_ child: ViewController) throws {
        var failure: (any Error)?
        do { try child.dispatch(.willMoveToParent, argument: self) { child.willMove(toParent: self) } } catch {
            failure = error
        }
        try checkAddingChild(child)
        if child.parent != nil {
            do { try child.removeFromParent() } catch { failure = failure ?? error }
        }
        if let window = child.rootOfWindow { window.rootViewController = nil }
        children.append(child)
        child.parent = self
        child.ownerDidChange()
        if let failure { throw failure }
    }

    private func checkAddingChild(_ child: ViewController) throws(TraitError) {
        if isInside(presentationsOf: child) {
            throw .cycle(node: debugName, ancestor: child.debugName)
        }
        if child.presentingViewController != nil {
            throw .invalidHierarchy("cannot add \(child.debugName) as a child of \(debugName): it is presented "
                                    + "(dismiss it first)")
        }
        try HierarchyDepth.check(adding: child, under: self)
    }

    /// Removes this controller from its parent (its view stays where it is), then calls its
    /// `didMove(toParent: nil)`, as UIKit does; rethrows a binding's error from that.
    public func removeFromParent() throws {
        guard parent != nil else { return }
        detachFromParent()
        try dispatch(.didMoveToParent) { didMove(toParent: nil) }
    }

    /// Takes this controller out of its parent's children without calling it (a window
    /// taking it as its root, a hosting view dropping what it represented).
    func detachFromParent() {
        guard let parent else { return }
        if let i = parent.children.firstIndex(where: { $0 === self }) { parent.children.remove(at: i) }
        self.parent = nil
        ownerDidChange()
    }

    // MARK: Presentation

    /// Presents `controller` over this one's window; it inherits through a new
    /// `PresentationController`, which inherits from that window (R4).
    public func present(_ controller: ViewController) throws(TraitError) {
        guard let window else {
            throw .invalidHierarchy("cannot present \(controller.debugName) from \(debugName): it is not in a window")
        }
        guard presentedViewController == nil else {
            throw .invalidHierarchy("\(debugName) is already presenting \(presentedViewController!.debugName)")
        }
        if controller.presentingViewController != nil || controller.window != nil || controller === self {
            throw .invalidHierarchy("cannot present \(controller.debugName): it is already in a window")
        }
        if let parent = controller.parent {
            throw .invalidHierarchy("cannot present \(controller.debugName): it is a child of \(parent.debugName) "
                                    + "(remove it from its parent first)")
        }
        if isInside(presentationsOf: controller) {
            throw .invalidHierarchy("cannot present \(controller.debugName) from \(debugName): "
                                    + "\(debugName) is inside what \(controller.debugName) presents")
        }
        if presentationDepth >= HierarchyDepth.limit {
            throw .invalidHierarchy("cannot present \(controller.debugName) from \(debugName): "
                                    + "presentations nest at most \(HierarchyDepth.limit) deep")
        }
        let oldWindow = controller.window
        try? controller.loadViewIfNeeded()
        // The presentation shows the view, as UIKit's takes it into its container view. A view
        // left among a superview's subviews would have no trait child standing for it there.
        if let superview = controller.loadedView?.superview {
            throw .invalidHierarchy("cannot present \(controller.debugName): its view is in \(superview.debugName) "
                                    + "(remove it from there first)")
        }
        try HierarchyDepth.check(placing: controller, atLevel: window.level + 2, under: self)
        let presentation = PresentationController(presented: controller, presenting: self)
        // UIKit presents as a sheet by default (iOS 13+), and a sheet is elevated: in dark mode
        // its systemBackground is #1C1C1E, not black. An override of the presentation
        // controller, so a script's own override there still wins.
        try? presentation.traitOverrides.set(UserInterfaceLevel.elevated.traitValue, for: SystemTraits.userInterfaceLevel)
        presentedViewController = controller
        controller.presentingViewController = self
        controller.presentationController = presentation
        presentation.setTraitParent(window)
        controller.setTraitParent(presentation)
        controller.ownerDidChange()
        Appearance.windowChanged(for: controller, from: oldWindow, to: window)
    }

    /// Whether this controller is `controller` or sits, through containment and presentations,
    /// inside what it presents. A controller taken out of its window keeps what it presents,
    /// so without this check it could be presented by its own presented controller, or become
    /// its child: a cycle that `window` and dismissing would follow forever. A controller is
    /// never both a child and presented (`addChild` and `present` refuse that), so the way up
    /// is one chain.
    private func isInside(presentationsOf controller: ViewController) -> Bool {
        var current: ViewController? = self
        while let c = current {
            if c === controller { return true }
            current = c.parent ?? c.presentingViewController
        }
        return false
    }

    /// Dismisses what this controller presents, or this controller when it is presented.
    public func dismiss() {
        if presentedViewController != nil {
            dismissPresented()
        } else {
            presentingViewController?.dismissPresented()
        }
    }

    /// Dismisses the presented controller and, first, whatever it presents in turn.
    func dismissPresented() {
        guard let presented = presentedViewController else { return }
        presented.dismissPresented()
        let oldWindow = presented.window
        presented.presentationController?.setTraitParent(nil)
        presented.setTraitParent(nil)
        presented.presentationController = nil
        presented.presentingViewController = nil
        presentedViewController = nil
        Appearance.windowChanged(for: presented, from: oldWindow, to: nil)
        presented.ownerDidChange()
    }
}

/// The object through which a presented controller inherits (R4).
public final class PresentationController: TraitEnvironment {
    /// The presented controller.
    public private(set) unowned(unsafe) var presentedViewController: ViewController?
    /// The controller that presented it.
    public private(set) unowned(unsafe) var presentingViewController: ViewController?

    init(presented: ViewController, presenting: ViewController) {
        presentedViewController = presented
        presentingViewController = presenting
        super.init(name: nil)
    }

    public override var owner: AnyObject? { presentedViewController }

    /// The presentation's overrides: they apply to the presented controller and its tree.
    public var traitOverrides: TraitOverrides { TraitOverrides(node: self) }
}
