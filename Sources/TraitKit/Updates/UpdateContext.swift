import Synchronization

/// The state of one update (R6): error collection, the pass epoch, and what lets the trait
/// walk visit a node without reference counting.
///
/// Children are visited without a retain (the trait tree does not own them): the context
/// records the path from the walk's root to the node being visited. Only callbacks can free
/// nodes, so before any callback `prepareForCallout()` retains every node on the path not yet
/// retained; each is released when the walk leaves it. The walk's root is kept alive by the
/// walk's caller. Collections need no such care: the walk writes them only into slots, and
/// holds what a node had before as a strong reference while its children are visited.
final class UpdateContext {
    /// The first error a callback raised; the pass completes and the caller rethrows it.
    private(set) var firstError: (any Error)?
    /// Every trait that changed value in this pass on a node that had a collection before.
    @exclusivity(unchecked) var changedTraits = TraitSet()
    /// The first few nodes that took their first collection in this pass: an update that does
    /// not settle because a callback adds a node in every pass names them.
    @exclusivity(unchecked) private(set) var newNodes: [TraitEnvironment] = []
    private(set) var epoch: UInt32
    /// How many times a callback was about to run: a node compares it before and after
    /// visiting its children to know whether its subtree summary may have grown meanwhile.
    @exclusivity(unchecked) private(set) var callouts: UInt32 = 0
    /// This thread's `current` slot, fetched once per update instead of once per callback.
    let current = CurrentSlot.box
    /// The update that was running when this one began (a callback's `updateTraitsIfNeeded`).
    private unowned(unsafe) var outerUpdate: UpdateContext?

    /// The nodes from the walk's root to the one being visited; `path[0..<pinned]` are
    /// retained (the root by the walk's caller, the others by `prepareForCallout`).
    @exclusivity(unchecked) private var path: UnsafeMutablePointer<Unmanaged<TraitEnvironment>>
    @exclusivity(unchecked) private var pathCapacity = 32
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var pinned = 0

    init() {
        epoch = passEpochs.add(1, ordering: .relaxed).newValue
        path = .allocate(capacity: pathCapacity)
        current.updateDepth += 1
        outerUpdate = current.update
        current.update = self
        if outerUpdate == nil { current.passEpoch = epoch }
    }

    deinit {
        path.deallocate()
        current.updateDepth -= 1
        current.update = outerUpdate
        if current.updateDepth == 0 {
            // The array holds the slots: read in place, unretained (a retain and a release
            // per slot an update wrote, on a tree of overriding views one per view).
            current.writtenSlots.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: Unmanaged<CollectionSlot>.self) { slots in
                    for slot in slots { slot._withUnsafeGuaranteedRef { $0.forgetHistory() } }
                }
            }
            current.writtenSlots.removeAll()
            current.overrideResults.removeAll()
            TraitEnvironment.joinPendingRegions(current)
            // Released last: a handler's captured values may deinit, and run code, here.
            let ended = current.endedDuringUpdate
            current.endedDuringUpdate = []
            withExtendedLifetime(ended) {}
        }
    }

    /// Starts another pass of the same update: a new epoch, a fresh change record.
    func beginPass() {
        epoch = passEpochs.add(1, ordering: .relaxed).newValue
        if outerUpdate == nil { current.passEpoch = epoch }
        changedTraits = TraitSet()
        if !newNodes.isEmpty { newNodes.removeAll() }
    }

    /// Notes a node's first collection (kept for the first three of a pass only).
    func noteNew(_ node: TraitEnvironment) {
        if newNodes.count < 3 { newNodes.append(node) }
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

    /// Ends the walk.
    func endWalk() {
        depth = 0
        pinned = 0
    }

    /// The epoch of the pass whose walk has gone past `node`, visited or not, if one has:
    /// `node` comes before the node being visited in pre-order, or its tree was walked
    /// already in this pass (its root was visited, and the walk is elsewhere now; a tree the
    /// walk did not enter has nothing new anyway). For a node outside what this update walks,
    /// the update around it decides.
    func epochPassing(_ node: TraitEnvironment) -> UInt32? {
        hasPassed(node) ? epoch : outerUpdate?.epochPassing(node)
    }

    /// The same for `node` being put under `parent` while the walk runs a callback: this
    /// pass's epoch unless `parent` is the node being visited or below it (R7: only a change
    /// below the node whose callback runs is picked up in the same pass). So a node a callback
    /// adds beside itself waits for the next pass: a `traitCollectionDidChange` that adds a
    /// sibling, whose own adds another, runs once a pass up to the update's limit, where it
    /// ran for ever in one pass.
    func epochPassing(_ node: TraitEnvironment, movingUnder parent: TraitEnvironment?) -> UInt32? {
        if depth > 0, let parent, !path[depth - 1]._withUnsafeGuaranteedRef({ parent.hasTraitAncestor($0) }) {
            return epoch
        }
        return epochPassing(node)
    }

    private func hasPassed(_ node: TraitEnvironment) -> Bool {
        var below: TraitEnvironment?
        var current: TraitEnvironment? = node
        while let c = current {
            let at = Unmanaged.passUnretained(c).toOpaque()
            if let j = (0..<depth).last(where: { path[$0].toOpaque() == at }) {
                guard let below else { return true }  // on the path: visited
                guard j + 1 < depth else { return false }  // below the node being visited
                let next = UInt(bitPattern: path[j + 1].toOpaque())
                let mine = UInt(bitPattern: Unmanaged.passUnretained(below).toOpaque())
                for entry in c.traitChildren {
                    if entry.address == mine { return true }
                    if entry.address == next { return false }
                }
                return false
            }
            below = c
            current = c.traitParent
        }
        return node.traitRoot.visitEpoch == epoch
    }

    /// Records that the walk entered `node` (a child of the node on top of the path).
    @inline(__always)
    func push(_ node: Unmanaged<TraitEnvironment>) {
        if depth == pathCapacity { growPath() }
        path[depth] = node
        depth += 1
    }

    /// Records that the walk left the node on top of the path; releases it if it was pinned
    /// (which may free it: the caller must not touch it afterwards).
    @inline(__always)
    func pop() {
        depth -= 1
        if pinned > depth {
            pinned = depth
            path[depth].release()
        }
    }

    private func growPath() {
        let larger = UnsafeMutablePointer<Unmanaged<TraitEnvironment>>.allocate(capacity: pathCapacity * 2)
        larger.moveInitialize(from: path, count: depth)
        path.deallocate()
        path = larger
        pathCapacity *= 2
    }

    /// Makes the walk safe for a callback: retains the nodes on the path, so a callback that
    /// frees a node cannot pull it from under the walk.
    func prepareForCallout() {
        callouts &+= 1
        while pinned < depth {
            _ = path[pinned].retain()
            pinned += 1
        }
    }
}

private let passEpochs = Atomic<UInt32>(0)
