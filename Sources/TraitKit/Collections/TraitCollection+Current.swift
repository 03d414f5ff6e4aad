import CThreadStack
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `TraitCollection.current` (R8, R9): the collection that dynamic colors and images resolve
/// against. It is per thread, as in UIKit, so two hierarchies on two threads never see each
/// other's value. The engine sets it around every callback it makes into a node.
extension TraitCollection {
    /// The current collection of this thread (all defaults unless something set it).
    public static var current: TraitCollection {
        get { CurrentSlot.box.current }
        set {
            let box = CurrentSlot.box
            box.collection = newValue
            box.node = nil
        }
    }

    /// Runs `body` with this collection as `current`, restoring the previous one after, even
    /// when `body` throws.
    public func performAsCurrent<R>(_ body: () throws -> R) rethrows -> R {
        let box = CurrentSlot.box
        let (savedCollection, savedNode) = (box.collection, box.node)
        box.collection = self
        box.node = nil
        defer { (box.collection, box.node) = (savedCollection, savedNode) }
        return try body()
    }
}

/// One box per thread, reached through a pthread key (Swift has no thread-local storage).
enum CurrentSlot {
    /// Used only on its own thread, by the engine's own code, with no overlapping accesses:
    /// its stored properties skip Swift's dynamic exclusivity checks (a runtime call on every
    /// access, several per node an update visits).
    final class Box {
        @exclusivity(unchecked) var collection = TraitCollection.defaults
        /// While the engine calls into a node, current is that node's collection; keeping the
        /// node (a plain pointer store) instead of its collection saves reference counting.
        /// The engine keeps the node alive for as long as it is current.
        @exclusivity(unchecked) private var nodeRef: Unmanaged<TraitEnvironment>?

        var node: TraitEnvironment? {
            get { nodeRef?.takeUnretainedValue() }
            set { nodeRef = newValue.map(Unmanaged.passUnretained) }
        }

        var current: TraitCollection { node?.traitCollection ?? collection }

        /// Makes `node`'s collection current for `body` (a plain pointer swap, no reference
        /// counting: `performAsCurrent` inside restores `collection` itself).
        func withCurrent(_ node: TraitEnvironment, _ body: () -> Void) {
            let saved = enter(node)
            body()
            leave(saved)
        }

        /// Makes `node`'s collection current; returns what to hand `leave` after.
        @inline(__always)
        func enter(_ node: TraitEnvironment) -> Unmanaged<TraitEnvironment>? {
            let saved = nodeRef
            nodeRef = Unmanaged.passUnretained(node)
            return saved
        }

        /// Restores what was current before `enter`.
        @inline(__always)
        func leave(_ saved: Unmanaged<TraitEnvironment>?) { nodeRef = saved }
        /// Set while a layout or draw callback runs on this thread (`TraitReadTracking`).
        @exclusivity(unchecked) var recordedReads: TraitSet?
        /// How many updates run on this thread (an update inside a callback is nested).
        @exclusivity(unchecked) var updateDepth = 0
        /// Tint changes notifying their views inside one another on this thread (`setTintColor`).
        @exclusivity(unchecked) var tints = Nesting()
        /// A binding's lifecycle methods running inside one another (`TraitEnvironment.dispatch`).
        @exclusivity(unchecked) var callbacks = Nesting()
        /// This thread's stack, for `StackRoom`.
        lazy var stack: (floor: UInt, size: Int)? = StackRoom.currentThreadStack()
        /// Slots written since the outermost update began (`CollectionSlot.forgetHistory`).
        @exclusivity(unchecked) var writtenSlots: [CollectionSlot] = []
        /// The epoch of the outermost update's running pass: what a node has, as far as its
        /// callbacks know, is what it had when that pass began unless it took something in
        /// since (`TraitEnvironment.keepCollection`, `updateTraits`).
        @exclusivity(unchecked) var passEpoch: UInt32 = 0
        /// The innermost running update: its `epoch` is the running pass's (epochs only grow,
        /// so a pass nested in a callback has a later one than the pass around it). Kept
        /// unretained: the update sets and clears it while it runs.
        var update: UpdateContext? {
            get { updateRef?.takeUnretainedValue() }
            set { updateRef = newValue.map(Unmanaged.passUnretained) }
        }
        @exclusivity(unchecked) private var updateRef: Unmanaged<UpdateContext>?
        /// The running pass's epoch, 0 outside an update: read for every slot an update makes
        /// or writes, without the retain and release that loading `update` costs.
        var updateEpoch: UInt32 { updateRef?._withUnsafeGuaranteedRef { $0.epoch } ?? 0 }
        /// Nodes whose region is to join their parent's once the outermost update ends
        /// (`TraitEnvironment.shareParentSlot`), retained until then.
        @exclusivity(unchecked) var pendingJoins: [Unmanaged<TraitEnvironment>] = []
        /// Registrations ended while an update ran, kept until the outermost one ends: the
        /// walk fires a node's first registration without retaining it (`callChangeHandlers`).
        @exclusivity(unchecked) var endedDuringUpdate: [TraitChangeRegistration] = []
        /// Collections the running update made from overrides, for nodes that apply equal ones.
        @exclusivity(unchecked) var overrideResults = OverrideResults()
    }

    /// Releases a thread's box when the thread exits (the box itself is found through
    /// `tk_current_box`, cleared first: a later destructor that reaches the engine on the
    /// exiting thread gets a new box, which this key releases in turn).
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            tk_set_current_box(nil)
            if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() }
        }
        return key
    }()

    static var box: Box { unretainedBox.takeUnretainedValue() }

    /// This thread's box, not retained (the thread keeps it while it runs): for paths that
    /// every insertion and removal takes, borrowed with `_withUnsafeGuaranteedRef`.
    @inline(__always)
    static var unretainedBox: Unmanaged<Box> {
        if let raw = tk_get_current_box() { return Unmanaged<Box>.fromOpaque(raw) }
        return makeBox()
    }

    @inline(never)
    private static func makeBox() -> Unmanaged<Box> {
        let box = Unmanaged.passRetained(Box())
        pthread_setspecific(key, box.toOpaque())
        tk_set_current_box(box.toOpaque())
        return box
    }
}

/// Calls that start one another on a thread (a callback that starts what calls it), with a
/// limit: one `limit` deep is refused, and so is every one after it until the outermost
/// returns. Without the second rule a loop that catches the refusal and tries again at each
/// level unwinds in time exponential in the depth.
struct Nesting {
    private var depth = 0
    private var runaway = false

    /// Whether one more may start; a refusal refuses the rest until the outermost `leave`.
    mutating func mayEnter(limit: Int) -> Bool {
        guard depth < limit, !runaway else {
            runaway = true
            return false
        }
        return true
    }

    mutating func enter() { depth += 1 }

    mutating func leave() {
        depth -= 1
        if depth == 0 { runaway = false }
    }
}
