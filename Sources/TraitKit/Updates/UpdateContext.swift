import CSwiftRuntime
import Synchronization

/// The state of one update (R6): error collection, the pass epoch, and what lets the trait
/// walk visit a node without any reference counting.
///
/// A flush hands one collection to every node of a subtree without overrides. Done plainly,
/// each node costs a retain of the new collection, a release of the old one and a retain and
/// release of the node itself around its visit: four atomic operations, more than half of a
/// flush. The walk avoids all of them while no callback runs:
///
/// - **Deferred counts.** A node takes its parent's collection without a retain; the context
///   counts how many nodes took it and how many dropped their old one, and applies the counts
///   with one `swift_retain_n` / `swift_release_n` each. Until then the new collection is kept
///   alive by the node that made it (an ancestor, which cannot let go of it during the walk)
///   and the old one by its unapplied releases.
/// - **Pinned path.** Children are visited without a retain (the trait tree does not own
///   them), and each node hands its collection to its children unretained. The context records
///   the path from the walk's root to the node being visited, with the collection each node
///   on it hands down.
///
/// Only callbacks can free nodes or replace a collection, so before any callback
/// `prepareForCallout()` applies the counts and retains every node on the path not yet
/// retained, with the collection it hands down; both are released when the walk leaves the
/// node. The walk's root and what it hands down are kept alive by the walk's caller.
final class UpdateContext {
    /// The first error a callback raised; the pass completes and the caller rethrows it.
    private(set) var firstError: (any Error)?
    /// Every trait that changed value somewhere during this context.
    @exclusivity(unchecked) var changedTraits = TraitSet()
    private(set) var epoch: UInt32
    /// This thread's `current` slot, fetched once per update instead of once per callback.
    let current = CurrentSlot.box

    @exclusivity(unchecked) private var retained: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var retainCount: UInt32 = 0
    @exclusivity(unchecked) private var released: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var releaseCount: UInt32 = 0

    /// The nodes from the walk's root to the one being visited; `path[0..<pinned]` are
    /// retained (the root by the walk's caller, the others by `prepareForCallout`).
    @exclusivity(unchecked) private var path: UnsafeMutablePointer<PathEntry>
    @exclusivity(unchecked) private var pathCapacity = 32
    @exclusivity(unchecked) private(set) var depth = 0
    @exclusivity(unchecked) private var pinned = 0

    init() {
        epoch = passEpochs.add(1, ordering: .relaxed).newValue
        path = .allocate(capacity: pathCapacity)
    }

    deinit {
        applyCounts()
        path.deallocate()
    }

    /// Starts another pass of the same update: a new epoch, a fresh change record.
    func beginPass() {
        epoch = passEpochs.add(1, ordering: .relaxed).newValue
        changedTraits = TraitSet()
    }

    func record(_ error: any Error) {
        if firstError == nil { firstError = error }
    }

    /// Runs a callback, recording its error instead of stopping the pass.
    func run(_ body: () throws -> Void) {
        do { try body() } catch { record(error) }
    }

    func rethrow() throws {
        if let firstError { throw firstError }
    }

    // MARK: The walk

    /// Starts a trait walk at `root`, which the caller keeps alive.
    func beginWalk(_ root: TraitEnvironment) {
        depth = 0
        push(.passUnretained(root))
        pinned = 1
    }

    /// Ends the walk: every deferred count is applied.
    func endWalk() {
        applyCounts()
        depth = 0
        pinned = 0
    }

    /// Records that the walk entered `node` (a child of the node on top of the path).
    @inline(__always)
    func push(_ node: Unmanaged<TraitEnvironment>) {
        if depth == pathCapacity { growPath() }
        path[depth] = PathEntry(node: node, handedDown: nil)
        depth += 1
    }

    /// The node on top of the path hands `collection` to its children (again, when a callback
    /// changed its collection while they were visited).
    @inline(__always)
    func handDown(_ collection: Unmanaged<TraitCollection>) {
        let top = depth - 1
        // Pinned already (by a callback): the pin covers what it hands down, too. The children
        // given the old one so far hold it once their counts are applied.
        if top > 0, top < pinned {
            applyCounts()
            _ = collection.retain()
            path[top].handedDown?.release()
        }
        path[top].handedDown = collection
    }

    /// Records that the walk left the node on top of the path; releases it if it was pinned
    /// (which may free it: the caller must not touch it afterwards).
    @inline(__always)
    func pop() {
        depth -= 1
        if pinned > depth { unpin() }
    }

    /// Releases the pinned node that was on top of the path. A callback may have removed it
    /// from the tree, and then this frees it and its subtree: the counts of the nodes visited
    /// since are applied first, or those nodes would release collections they never retained.
    private func unpin() {
        applyCounts()
        pinned = depth
        path[depth].handedDown?.release()
        path[depth].node.release()
    }

    private func growPath() {
        let larger = UnsafeMutablePointer<PathEntry>.allocate(capacity: pathCapacity * 2)
        larger.moveInitialize(from: path, count: depth)
        path.deallocate()
        path = larger
        pathCapacity *= 2
    }

    /// Makes the walk safe for a callback: applies the deferred counts and retains the nodes on
    /// the path and what they hand down, so a callback that frees a node or replaces a
    /// collection cannot pull either from under the walk.
    func prepareForCallout() {
        applyCounts()
        while pinned < depth {
            _ = path[pinned].node.retain()
            _ = path[pinned].handedDown?.retain()
            pinned += 1
        }
    }

    // MARK: Deferred reference counts

    /// `count` nodes now hold `collection` without having retained it.
    @inline(__always)
    func deferRetain(_ collection: Unmanaged<TraitCollection>, count: UInt32 = 1) {
        let object = collection.toOpaque()
        if object != retained {
            applyRetains()
            retained = object
        }
        retainCount += count
    }

    /// `count` nodes let go of `collection` without releasing it.
    @inline(__always)
    func deferRelease(_ collection: Unmanaged<TraitCollection>, count: UInt32 = 1) {
        let object = collection.toOpaque()
        if object != released {
            // Retains first: a collection may be both retained and released.
            applyRetains()
            applyReleases()
            released = object
        }
        releaseCount += count
    }

    private func applyCounts() {
        applyRetains()
        applyReleases()
    }

    private func applyRetains() {
        if let retained { tk_retain_n(retained, retainCount) }
        retained = nil
        retainCount = 0
    }

    private func applyReleases() {
        if let released { tk_release_n(released, releaseCount) }
        released = nil
        releaseCount = 0
    }
}

private let passEpochs = Atomic<UInt32>(0)

/// A node on the walk's path and the collection it hands to its children (nil until its
/// children are visited).
struct PathEntry {
    var node: Unmanaged<TraitEnvironment>
    var handedDown: Unmanaged<TraitCollection>?
}

/// The reference counts of the plain leaves among one node's children, kept in registers
/// while the walk goes through them and handed to the context (`settle`) before anything else
/// can happen: all take the same collection, and nearly all drop the same old one.
struct LeafCounts {
    var taken: UInt32 = 0
    private var dropped: Unmanaged<TraitCollection>?
    private var droppedCount: UInt32 = 0

    /// A leaf let go of `old`.
    @inline(__always)
    mutating func drop(_ old: Unmanaged<TraitCollection>, in context: UpdateContext) {
        if old.toOpaque() == dropped?.toOpaque() {
            droppedCount += 1
            return
        }
        if let dropped { context.deferRelease(dropped, count: droppedCount) }
        dropped = old
        droppedCount = 1
    }

    /// Hands the counts to the context; `collection` is what the leaves took.
    @inline(__always)
    mutating func settle(taking collection: Unmanaged<TraitCollection>, in context: UpdateContext) {
        if taken > 0 { context.deferRetain(collection, count: taken) }
        if let dropped { context.deferRelease(dropped, count: droppedCount) }
        self = LeafCounts()
    }
}
