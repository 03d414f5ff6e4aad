/// R11: `node.explain(trait)` tells where a node's value of a trait comes from: its own or an
/// ancestor's override, the app-wide style, the screen's system traits, or the default.
extension TraitEnvironment {
    /// The value the next update gives this node, and where it comes from. When the node's
    /// collection still reads something else (R6: collections change only in an update), the
    /// text says so, as `:tree` marks a pending override, and says too when no application
    /// update will ever bring it (a window without a scene, a view in no window: R6).
    public func explain(_ trait: Trait) -> String {
        let (value, source) = origin(of: trait)
        var text = "\(trait.name) = \(trait.format(value)) on \(debugName): \(source)"
        if !isReachedByUpdate, !(self is Screen) {
            // "The default" would read as settled; a detached node's traits are not current.
            text += " (not in a window: the application's update does not reach it, "
                + "so its traits are current only after updateTraitsIfNeeded())"
        }
        let current = traitCollection[trait]
        guard current != value else { return text }
        text += " (update pending: traitCollection still reads \(trait.format(current))"
        return text + ")"
    }

    /// `explain` for a trait defined in Swift: `header.explain(ThemeTrait.self)`.
    public func explain<T: TraitDefinition>(_ definition: T.Type) -> String { explain(T.trait) }

    /// Whether the application's `update()` reaches this node: its trait tree ends at a screen
    /// the application holds (R6: only nodes in a window of a scene on such a screen update).
    var isReachedByUpdate: Bool { (traitRoot as? Screen)?.application != nil }

    /// The value the next update gives this node, and where it comes from.
    func origin(of trait: Trait) -> (TraitValue, String) {
        var node: TraitEnvironment? = self
        while let current = node {
            if let value = current.overrideStorage?.value(trait.id) {
                return (value, current === self ? "from its own override" : "from the override on \(current.debugName)")
            }
            if let scene = current as? WindowScene, trait === SystemTraits.userInterfaceStyle,
               let style = scene.screen?.application?.userInterfaceStyle, style != .unspecified {
                return (.enumCase(style.rawValue), "from the app-wide userInterfaceStyle")
            }
            if let screen = current as? Screen, screen.systemTraits[trait] != trait.defaultValue {
                return (screen.systemTraits[trait], "from the system traits of \(screen.debugName)")
            }
            node = current.traitParent
        }
        return (trait.defaultValue, "the default (nothing sets it)")
    }
}
