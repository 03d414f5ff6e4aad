/// A window (R4): a root view that inherits from its scene and hosts a root view controller.
public final class Window: View {
    /// The scene that shows the window.
    public private(set) unowned(unsafe) var windowScene: WindowScene?
    /// Appearance transitions waiting for the next update of this window (R8).
    var pendingAppearance: [ViewController] = []

    /// A window, shown by `scene` when one is given.
    public init(scene: WindowScene? = nil, name: String? = nil) {
        super.init(name: name)
        flags.insert(.isWindow)
        if let scene { self.windowScene = scene; scene.attach(self) }
    }

    public override var owner: AnyObject? { windowScene }

    /// Moves the window to another scene (nil detaches it).
    public func setScene(_ scene: WindowScene?) {
        guard scene !== windowScene else { return }
        let leaving = windowScene?.screen?.application
        windowScene?.detach(self)
        windowScene = scene
        scene?.attach(self)
        ownerDidChange()
        // UIKit's window visibility: a window out of every scene is not shown, so its
        // controllers disappear (and appear again when it is back in one). The application
        // no longer reaches a window that left, so it is handed the window's transitions.
        Appearance.visibilityChanged(of: self)
        if scene == nil, !pendingAppearance.isEmpty { leaving?.windowLeft(self) }
    }

    deinit {
        if let root = rootViewController, root.rootOfWindow === self {
            root.rootOfWindow = nil
            root.ownerDidChange()
        }
    }

    /// The root view controller: its view becomes the window's content view. A controller is
    /// the root of one window at most: making it another window's root takes it from this one,
    /// and making a presented controller the root dismisses it first.
    public var rootViewController: ViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue, old.rootOfWindow === self {
                old.rootOfWindow = nil
                old.viewIfLoaded?.removeFromSuperview()
                old.ownerDidChange()
            }
            if let root = rootViewController {
                root.presentingViewController?.dismissPresented()
                root.detachFromParent()
                if let other = root.rootOfWindow, other !== self { other.rootViewController = nil }
                root.rootOfWindow = self
                place(root.view, at: 0)
                root.ownerDidChange()
            }
        }
    }
}

/// A window scene (R4): inherits from its screen; owns its windows.
public final class WindowScene: TraitEnvironment {
    /// The screen the scene is on.
    public private(set) unowned(unsafe) var screen: Screen?
    /// The scene's windows, in the order they were added.
    public private(set) var windows: [Window] = []

    /// A scene, on `screen` when one is given.
    public init(screen: Screen? = nil, name: String? = nil) {
        super.init(name: name)
        if let screen { self.screen = screen; screen.attach(self) }
    }

    deinit {
        for window in windows { window.windowSceneDidGo() }
    }

    public override var owner: AnyObject? { screen }

    /// The scene's overrides (R4): they apply to its windows and everything in them.
    public var traitOverrides: TraitOverrides { TraitOverrides(node: self) }

    func attach(_ window: Window) {
        windows.append(window)
        window.setTraitParent(self)
    }

    func detach(_ window: Window) {
        windows.removeAll { $0 === window }
        window.setTraitParent(nil)
    }

    /// The app-wide style (R9) applies below the screen, ahead of the scene's own overrides.
    override var inheritsUnchanged: Bool { false }
    override var ownTraitMask: TraitSet? { nil }

    override func collection(inheriting parentCollection: TraitCollection) -> TraitCollection {
        var base = parentCollection
        if let style = screen?.application?.userInterfaceStyle, style != .unspecified,
           base.userInterfaceStyle != style {
            base = base.modifyingTraits { $0.userInterfaceStyle = style }
        }
        return super.collection(inheriting: base)
    }
}

extension WindowScene {
    func screenDidGo() {
        screen = nil
        ownerDidChange()
    }
}

extension Window {
    func windowSceneDidGo() {
        windowScene = nil
        ownerDidChange()
    }
}

/// A screen (R4): the root of the trait tree. It has no overrides; its system traits (the
/// device and the user's settings) are the root values.
public final class Screen: TraitEnvironment {
    /// The scenes on the screen.
    public private(set) var scenes: [WindowScene] = []
    /// What the device reports; change it with `setSystemTraits`.
    public private(set) var systemTraits: TraitCollection
    /// The application that updates this screen, once it is added to one.
    public internal(set) weak var application: Application?

    /// A screen whose collection is `systemTraits` from the start.
    public init(systemTraits: TraitCollection = TraitCollection(), name: String? = nil) {
        self.systemTraits = systemTraits
        super.init(name: name)
        // No parent to wait for: its collection is its system traits from the start, as
        // UIScreen's is (later changes show in the next update, R6).
        ownSlot(systemTraits)
    }

    deinit {
        for scene in scenes { scene.screenDidGo() }
    }

    public override var owner: AnyObject? { application }

    /// Sets the given traits and keeps the others (`screen:setSystemTraits{...}`).
    public func setSystemTraits(_ change: (inout MutableTraits) throws -> Void) rethrows {
        systemTraits = try systemTraits.modifyingTraits(change)
        markNeedsTraitUpdate()
    }

    override func rootCollection() -> TraitCollection { systemTraits }

    override func checkCanOverride() throws(TraitError) { throw .screenHasNoOverrides }

    func attach(_ scene: WindowScene) {
        scenes.append(scene)
        scene.setTraitParent(self)
    }

    /// Marks every scene for recompute (the app-wide style changed).
    func invalidateScenes() {
        for scene in scenes { scene.markNeedsTraitUpdate() }
    }
}
