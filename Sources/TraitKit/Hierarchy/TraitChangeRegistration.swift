/// R7: registering for trait changes.
///
/// A registration lives in its node and ends with it. The handler receives the node as an
/// argument, so it never needs to capture (and so keep alive) the node it is registered on.
public final class TraitChangeRegistration {
    /// Called with the node and its previous collection after an update changed a registered trait.
    public typealias Handler = (TraitEnvironment, TraitCollection) throws -> Void

    let traits: TraitSet
    /// What to call; the target-action form is a closure over a weak reference to its target.
    /// One stored closure, not an enum of forms: firing then copies nothing out of the
    /// registration, which a handler that unregisters itself cannot free mid-call because
    /// the walk fires from its own copy of the node's registrations.
    let handler: Handler
    /// Set by `unregisterForTraitChanges`: a pass that had already reached the node skips it.
    @exclusivity(unchecked) var ended = false

    init(traits: TraitSet, handler: @escaping Handler) {
        self.traits = traits
        self.handler = handler
    }

    /// Fires a registration the caller keeps alive, without retaining it or its closure
    /// (the walk fires from its own copy of the node's registrations).
    @inline(never)
    static func fire(_ registration: Unmanaged<TraitChangeRegistration>, _ node: TraitEnvironment,
                     previous: TraitCollection) throws {
        try registration._withUnsafeGuaranteedRef { try $0.handler(node, previous) }
    }

    /// Target-action: the target is held weakly, as in UIKit; once it is gone, nothing runs.
    static func targetAction(_ target: AnyObject, _ action: @escaping (AnyObject, TraitEnvironment, TraitCollection) throws -> Void)
        -> Handler
    {
        let weak = Weak(target)
        return { node, previous in
            if let object = weak.object { try action(object, node, previous) }
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
    /// The node method to call, as UIKit's selector would name it.
    case setNeedsLayout, setNeedsDisplay
}

extension TraitEnvironment {
    /// Calls `handler(node, previous)` after an update in which any of `traits` changed value.
    @discardableResult
    public func registerForTraitChanges(_ traits: [Trait], handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(traits, handler)
    }

    /// The same for the traits of a set (a binding reads a script's list into one, with no
    /// array in between).
    @discardableResult
    public func registerForTraitChanges(_ traits: TraitSet, handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(traits, handler)
    }

    /// Typed form of the closure registration: `registerForTraitChanges([ThemeTrait.self]) { ... }`.
    @discardableResult
    public func registerForTraitChanges(_ definitions: [any TraitDefinition.Type],
                                        handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(definitions.map { $0.trait }, handler)
    }

    /// Target-action form: calls `action(target)(node, previous)`; the target is held weakly.
    @discardableResult
    public func registerForTraitChanges<Target: AnyObject>(
        _ traits: [Trait], target: Target,
        action: @escaping (Target) -> (TraitEnvironment, TraitCollection) throws -> Void
    ) throws(TraitError) -> TraitChangeRegistration {
        try register(traits, TraitChangeRegistration.targetAction(target) { object, node, previous in
            try action(object as! Target)(node, previous)
        })
    }

    /// Action form with the node itself as the target: `registerForTraitChanges(traits, action: .setNeedsLayout)`.
    @discardableResult
    public func registerForTraitChanges(_ traits: [Trait], action: TraitChangeAction)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(traits) { node, _ in
            switch action {
            case .setNeedsLayout: node.setNeedsLayout()
            case .setNeedsDisplay: node.setNeedsDisplay()
            }
        }
    }

    /// Ends a registration; unregistering twice, or a token of another node, does nothing.
    /// Returns whether it ended one.
    @discardableResult
    public func unregisterForTraitChanges(_ registration: TraitChangeRegistration) -> Bool {
        guard let extras, extras.remove(registration) else { return false }
        registration.ended = true
        let current = CurrentSlot.box
        if current.updateDepth > 0 { current.endedDuringUpdate.append(registration) }
        extrasMasksDidChange()
        return true
    }

    func register(_ traits: [Trait], _ handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        try register(TraitSet(traits), handler)
    }

    func register(_ traits: TraitSet, _ handler: @escaping TraitChangeRegistration.Handler)
        throws(TraitError) -> TraitChangeRegistration
    {
        guard !traits.isEmpty else { throw .emptyTraitList }
        let registration = TraitChangeRegistration(traits: traits, handler: handler)
        ensureExtras().append(registration)
        extrasMasksDidChange()
        return registration
    }
}
