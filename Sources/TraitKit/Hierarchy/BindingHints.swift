import Synchronization

/// Which callbacks some language binding in this process may run scripted methods for.
///
/// A binding declares an event the first time a script defines a method for it. Until then
/// the update pass treats bound nodes like plain ones for that event: a Lua-built tree whose
/// scripts never define `traitCollectionDidChange` flushes without asking the binding at
/// every node. Process-wide and only ever grows: a hint about scripts, not hierarchy state.
public enum BindingHints {
    private static let declared = Atomic<UInt32>(0)

    /// Some binding may now run a scripted method for `event`.
    public static func declare(_ event: NodeEvent) {
        declared.bitwiseOr(bit(event), ordering: .relaxed)
    }

    /// Whether any binding declared `event`.
    @inline(__always)
    static func mayImplement(_ event: NodeEvent) -> Bool {
        declared.load(ordering: .relaxed) & bit(event) != 0
    }

    /// A constant per event (a switch the optimizer folds; looking the event up in `allCases`
    /// would build an array per call on the update pass's path).
    @inline(__always)
    private static func bit(_ event: NodeEvent) -> UInt32 {
        switch event {
        case .traitCollectionDidChange: 1 << 0
        case .loadView: 1 << 1
        case .viewDidLoad: 1 << 2
        case .viewWillAppear: 1 << 3
        case .viewIsAppearing: 1 << 4
        case .viewDidAppear: 1 << 5
        case .viewWillDisappear: 1 << 6
        case .viewDidDisappear: 1 << 7
        case .viewWillLayoutSubviews: 1 << 8
        case .viewDidLayoutSubviews: 1 << 9
        case .layoutSubviews: 1 << 10
        case .draw: 1 << 11
        case .updateConstraints: 1 << 12
        case .tintColorDidChange: 1 << 13
        case .willMoveToParent: 1 << 14
        case .didMoveToParent: 1 << 15
        }
    }
}
