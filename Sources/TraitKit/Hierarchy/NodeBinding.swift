/// What a language binding attaches to the nodes it wraps. The engine calls it when a node's
/// structural owner changes and for every callback it makes into the node, so scripted
/// per-instance and subclass methods run without the engine knowing about the language.
public protocol NodeBinding: AnyObject {
    /// The node was added to, moved in or removed from the hierarchy (its `owner` changed).
    func ownerDidChange(_ node: TraitEnvironment)
    /// Whether a scripted method for `event` may exist (a cheap check before `invoke`).
    func implements(_ event: NodeEvent) -> Bool
    /// Runs the scripted method for `event`, if there is one, with `argument` (a collection or
    /// a node; nil passes none); returns false when there is none.
    func invoke(_ event: NodeEvent, on node: TraitEnvironment, argument: AnyObject?) throws -> Bool
    /// The node no longer needs what the binding keeps for it under these keys (a hosting
    /// view's discarded render slots).
    func releaseValues(_ node: TraitEnvironment, keys: [Int])
}

extension NodeBinding {
    public func releaseValues(_ node: TraitEnvironment, keys: [Int]) {}
}

/// The callbacks the engine makes into nodes (R7, R8).
public enum NodeEvent: String, Sendable, CaseIterable {
    /// Named as UIKit's methods, which scripts define to take part.
    case traitCollectionDidChange, loadView, viewDidLoad, viewWillAppear, viewIsAppearing, viewDidAppear
    /// View controller lifecycle and layout.
    case viewWillDisappear, viewDidDisappear, viewWillLayoutSubviews, viewDidLayoutSubviews
    /// View passes and containment.
    case layoutSubviews, draw, updateConstraints, tintColorDidChange, willMoveToParent, didMoveToParent
}
