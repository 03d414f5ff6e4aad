/// R7: registering for trait changes.
///
/// A registration lives in its node and ends with it. The handler receives the node as an
/// argument, so it never needs to capture (and so keep alive) the node it is registered on.
public final class TraitChangeRegistration {
    public typealias Handler = (TraitEnvironment, TraitCollection) throws -> Void

    let traits: TraitSet
    enum Action {
        case handler(Handler)
        /// Target-action: the target is held weakly, as in UIKit.
        case targetAction(target: Weak, action: (AnyObject, TraitEnvironment, TraitCollection) throws -> Void)
    }
    let action: Action

    init(traits: TraitSet, action: Action) {
        self.traits = traits
        self.action = action
    }

    func fire(_ node: TraitEnvironment, previous: TraitCollection) throws {
        switch action {
        case .handler(let handler):
            try handler(node, previous)
        case .targetAction(let target, let action):
            if let object = target.object { try action(object, node, previous) }
        }
    }

    final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }
}

/// What a node can do when a registered trait changes, without a closure
/// (UIKit's `registerForTraitChanges(_:action:)` with `#selector(UIView.setNeedsLayout)`).
public enum TraitChangeAction: Sendable {
    case setNeedsLayout, setNeedsDisplay
}

extension TraitEnvironment {
    /// Calls `handler(node, previous)` after an update in which any of `traits` changed value.
    @discardableResult
    public func registerForTraitChanges(_ traits: [Trait], handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(traits, .handler(handler))
    }

    /// Typed form of the closure registration: `registerForTraitChanges([ThemeTrait.self]) { ... }`.
    @discardableResult
    public func registerForTraitChanges(_ definitions: [any TraitDefinition.Type],
                                        handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(definitions.map { $0.trait }, .handler(handler))
    }

    /// Target-action form: calls `action(target)(node, previous)`; the target is held weakly.
    @discardableResult
    public func registerForTraitChanges<Target: AnyObject>(
        _ traits: [Trait], target: Target,
        action: @escaping (Target) -> (TraitEnvironment, TraitCollection) throws -> Void
    ) throws(TraitError) -> TraitChangeRegistration {
        try register(traits, .targetAction(target: .init(target)) { object, node, previous in
            try action(object as! Target)(node, previous)
        })
    }

    /// Action form with the node itself as the target: `registerForTraitChanges(traits, action: .setNeedsLayout)`.
    @discardableResult
    public func registerForTraitChanges(_ traits: [Trait], action: TraitChangeAction)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(traits, .handler { node, _ in
            switch action {
            case .setNeedsLayout: node.setNeedsLayout()
            case .setNeedsDisplay: node.setNeedsDisplay()
            }
        })
    }

    /// Ends a registration; unregistering twice, or a token of another node, does nothing.
    public func unregisterForTraitChanges(_ registration: TraitChangeRegistration) {
        guard let extras, let i = extras.registrations.firstIndex(where: { $0 === registration }) else { return }
        extras.registrations.remove(at: i)
        extras.registeredTraits = extras.registrations.reduce(TraitSet()) { $0.union($1.traits) }
        extrasMasksDidChange()
    }

    func register(_ traits: [Trait], _ action: TraitChangeRegistration.Action)
        throws(TraitError) -> TraitChangeRegistration
    {
        guard !traits.isEmpty else { throw .emptyTraitList }
        let registration = TraitChangeRegistration(traits: TraitSet(traits), action: action)
        let extras = ensureExtras()
        extras.registrations.append(registration)
        extras.registeredTraits.formUnion(registration.traits)
        extrasMasksDidChange()
        return registration
    }
}
