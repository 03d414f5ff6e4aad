/// R7: registering for trait changes.
///
/// A registration lives in its node and ends with it. The handler receives the node as an
/// argument, so it never needs to capture (and so keep alive) the node it is registered on.
/// Its kind says what it calls: a Swift closure (`ClosureRegistration`), or an entry a binding
/// keeps on its side (`EntryRegistration`).
public class TraitChangeRegistration {
    /// Called with the node and its previous collection after an update changed a registered trait.
    public typealias Handler = (TraitEnvironment, TraitCollection) throws -> Void

    let traits: TraitSet
    /// Set by `unregisterForTraitChanges`: a pass that had already reached the node skips it.
    @exclusivity(unchecked) var ended = false

    init(traits: TraitSet) { self.traits = traits }

    /// Calls what the registration names; each kind overrides it.
    func call(_ node: TraitEnvironment, previous: TraitCollection) throws {}

    /// Fires a registration the caller keeps alive, without retaining it or what it calls
    /// (the walk fires from its own copy of the node's registrations, so a handler that
    /// unregisters itself cannot free it mid-call).
    @inline(never)
    static func fire(_ registration: Unmanaged<TraitChangeRegistration>, _ node: TraitEnvironment,
                     previous: TraitCollection) throws {
        try registration._withUnsafeGuaranteedRef { try $0.call(node, previous: previous) }
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

/// A registration that calls a Swift closure; the target-action form is one over a weak
/// reference to its target.
final class ClosureRegistration: TraitChangeRegistration {
    let handler: Handler

    init(traits: TraitSet, handler: @escaping Handler) {
        self.handler = handler
        super.init(traits: traits)
    }

    override func call(_ node: TraitEnvironment, previous: TraitCollection) throws {
        try handler(node, previous)
    }
}

/// A registration whose handler a binding keeps on its side under `id`.
final class EntryRegistration: TraitChangeRegistration {
    let id: Int64
    let runner: TraitChangeRunner

    init(traits: TraitSet, id: Int64, runner: TraitChangeRunner) {
        self.id = id
        self.runner = runner
        super.init(traits: traits)
    }

    override func call(_ node: TraitEnvironment, previous: TraitCollection) throws {
        try runner.run(id, of: node, previous: previous)
    }
}

/// What runs the registrations a language binding keeps on its side, each under an id; a
/// binding subclasses it.
///
/// A binding whose handlers are values of its language keeps them where that language's
/// collector can trace them (a Lua binding: in the node's userdata), and registers the id: a
/// closure per registration would be one more allocation for each, and would hold nothing
/// the id does not name. A class, not a protocol: a reference and the id take the room of
/// the closure they replace (the registration stays in its allocation size class), where an
/// existential is a word more.
open class TraitChangeRunner {
    /// A runner; a binding makes one for all the registrations it keeps.
    public init() {}

    /// Runs entry `id` for `node`, whose registered traits changed from `previous`.
    open func run(_ id: Int64, of node: TraitEnvironment, previous: TraitCollection) throws {}
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

    /// Calls `runner.run(id, node, previous)` after an update in which any of `traits`
    /// changed value.
    @discardableResult
    public func registerForTraitChanges(_ traits: TraitSet, runner: TraitChangeRunner, id: Int64)
        throws(TraitError) -> TraitChangeRegistration
    {
        try add(EntryRegistration(traits: traits, id: id, runner: runner))
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
        try add(ClosureRegistration(traits: traits, handler: handler))
    }

    private func add(_ registration: TraitChangeRegistration) throws(TraitError) -> TraitChangeRegistration {
        guard !registration.traits.isEmpty else { throw .emptyTraitList }
        ensureExtras().append(registration)
        extrasMasksDidChange()
        return registration
    }
}
