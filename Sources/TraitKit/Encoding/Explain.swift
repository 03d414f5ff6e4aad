/// R11: `node.explain(trait)` tells where a node's value of a trait comes from: its own or an
/// ancestor's override, the app-wide style, the screen's system traits, or the default.
extension TraitEnvironment {
    public func explain(_ trait: Trait) -> String {
        var node: TraitEnvironment? = self
        while let current = node {
            if let value = current.overrideStorage?.value(trait.id) {
                let whose = current === self ? "its own override" : "the override on \(current.debugName)"
                return "\(trait.name) = \(trait.format(value)) on \(debugName): from \(whose)"
            }
            if let scene = current as? WindowScene, trait === SystemTraits.userInterfaceStyle,
               let style = scene.screen?.application?.userInterfaceStyle, style != .unspecified {
                return "\(trait.name) = \(style) on \(debugName): from the app-wide userInterfaceStyle"
            }
            if let screen = current as? Screen {
                let value = screen.systemTraits[trait]
                if value != trait.defaultValue {
                    return "\(trait.name) = \(trait.format(value)) on \(debugName): from the system traits of \(screen.debugName)"
                }
            }
            node = current.traitParent
        }
        return "\(trait.name) = \(trait.format(trait.defaultValue)) on \(debugName): the default (nothing sets it)"
    }
}
