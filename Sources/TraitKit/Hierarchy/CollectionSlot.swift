import Synchronization

/// Where a region of the trait tree keeps its collection (R6).
///
/// A node without overrides has its parent's collection, so it shares its parent's slot
/// instead of holding a copy: a node "owns" a slot when it has overrides, is a root, or keeps a
/// value its parent no longer has (moved during an update, or held back by
/// `updateTraitsIfNeeded` on a relative), and every node below it that shares it is in its
/// region. An update writes the owner's slot once and the whole region has the new collection:
/// a flush costs the owners and the nodes that react, not the nodes of the tree (§6).
///
/// Only the trait walk and its helpers write a slot, on the hierarchy's thread, and only an
/// owner's. Two kinds are owned by no one and never written: `defaults`, where nodes start,
/// and snapshots, which nodes moved or removed between updates keep until their next update.
///
/// Confined to its hierarchy's thread and written without overlapping accesses, so its stored
/// properties skip Swift's dynamic exclusivity checks: the update walk reads and writes them
/// for every region it passes.
final class CollectionSlot: @unchecked Sendable {
    /// The region's collection, retained. The first stored property: bindings with a C fast
    /// path read it at a fixed offset (`TraitEnvironment.collectionPointerOffsets`).
    @exclusivity(unchecked) private(set) var collectionRef: Unmanaged<TraitCollection>
    /// Changes with every write, unique across slots: a node records the version of its
    /// parent's slot it last took in, so a later visit can tell nothing new reached it.
    @exclusivity(unchecked) private(set) var version: UInt32
    /// While the update that wrote or made the slot runs: what the region had before each
    /// write, with the version it had then and the pass that wrote (oldest first), and the
    /// slot the region shared before this one was made, and in which pass. With them a node
    /// that shares the slot and has not taken the latest values in still finds what it had
    /// (`collection(atVersion:)`, `collection(atPassStart:)`), when a callback updates or moves it ahead
    /// of the running walk. Regions only split while an update runs (they join after it,
    /// `shareParentSlot`), so this chain is all a region's past. Dropped when the update ends.
    /// (The first write of an update is kept apart: most slots are written once per update,
    /// and then no array is made.)
    @exclusivity(unchecked) private var firstWrite: Write?
    @exclusivity(unchecked) private var laterWrites: [Write] = []
    @exclusivity(unchecked) private var origin: CollectionSlot?
    @exclusivity(unchecked) private var originEpoch: UInt32 = 0
    /// A copy of this slot that no one owns and no one writes (`snapshot()`), while this slot
    /// holds the same collection; dropped at the next write.
    @exclusivity(unchecked) private var snapshotRef: Unmanaged<CollectionSlot>?
    /// Whether this slot is such a copy.
    let isSnapshot: Bool

    /// (The arguments are borrowed: an initializer otherwise takes them at +1, which costs
    /// every slot an update makes a retain and a release of each.)
    init(_ collection: borrowing TraitCollection, snapshot: Bool = false) {
        collectionRef = .passRetained(copy collection)
        version = slotVersions.add(1, ordering: .relaxed).newValue
        isSnapshot = snapshot
    }

    /// A slot for a region that shared `origin` until now.
    convenience init(_ collection: borrowing TraitCollection, origin: borrowing CollectionSlot,
                     in box: borrowing CurrentSlot.Box) {
        self.init(collection)
        if box.updateDepth > 0 {
            self.origin = copy origin
            originEpoch = box.updateEpoch
            box.writtenSlots.append(self)
        }
    }

    deinit {
        collectionRef.release()
        snapshotRef?.release()
    }

    var collection: TraitCollection { collectionRef.takeUnretainedValue() }

    /// Gives the region `collection`.
    func write(_ collection: TraitCollection, in box: CurrentSlot.Box) {
        let old = collectionRef.takeRetainedValue()
        collectionRef = .passRetained(collection)
        snapshotRef?.release()
        snapshotRef = nil
        if box.updateDepth > 0 {
            let entry = Write(version: version, collection: old, epoch: box.updateEpoch)
            if firstWrite == nil {
                firstWrite = entry
                if origin == nil { box.writtenSlots.append(self) }
            } else {
                laterWrites.append(entry)
            }
        }
        version = slotVersions.add(1, ordering: .relaxed).newValue
    }

    /// The collection this slot's region had at `version` of this slot or of a slot it
    /// replaced, as far as the running update still knows it.
    func collection(atVersion version: UInt32) -> TraitCollection? {
        var slot: CollectionSlot? = self
        while let s = slot {
            if s.version == version { return s.collection }
            var i = s.laterWrites.count  // newest first: a node is most often one write behind
            while i > 0 {
                i -= 1
                if s.laterWrites[i].version == version { return s.laterWrites[i].collection }
            }
            if let first = s.firstWrite, first.version == version { return first.collection }
            slot = s.origin
        }
        return nil
    }

    /// What this slot's region had when pass `epoch` began (passes nested in it have later
    /// epochs): what a node that shares the slot and took nothing in during the pass has.
    func collection(atPassStart epoch: UInt32) -> TraitCollection {
        collectionRef(atPassStart: epoch).takeUnretainedValue()
    }

    /// The same, unretained: the slot or its history holds it until the outermost update
    /// ends, and the walk compares it with what it already holds before taking a reference.
    func collectionRef(atPassStart epoch: UInt32) -> Unmanaged<TraitCollection> {
        if let origin, originEpoch >= epoch { return origin.collectionRef(atPassStart: epoch) }
        guard let first = firstWrite else { return collectionRef }
        if first.epoch >= epoch { return .passUnretained(first.collection) }
        for entry in laterWrites where entry.epoch >= epoch { return .passUnretained(entry.collection) }
        return collectionRef
    }

    /// A slot with this slot's collection that no one owns and no one writes, for the nodes
    /// that leave this slot's region between updates (`keepCollection`): they keep what they
    /// have, as a slot of their own would, and every node that leaves before the next write
    /// shares the one copy. This slot itself when it is such a copy.
    func snapshot() -> Unmanaged<CollectionSlot> {
        if isSnapshot { return .passUnretained(self) }
        if let snapshotRef { return snapshotRef }
        let made = Unmanaged.passRetained(CollectionSlot(collection, snapshot: true))
        snapshotRef = made
        return made
    }

    /// The update that wrote the slot ended.
    func forgetHistory() {
        firstWrite = nil
        laterWrites = []
        origin = nil
    }

    /// Where every new node starts: all defaults, before its first update.
    static let defaults = CollectionSlot(.defaults)
}

extension CollectionSlot {
    /// A write of the running update: the version and collection the slot had before it,
    /// and the pass that made it.
    struct Write {
        let version: UInt32
        let collection: TraitCollection
        let epoch: UInt32
    }
}

private let slotVersions = Atomic<UInt32>(0)

extension Unmanaged where Instance == CollectionSlot {
    /// Whether this is `CollectionSlot.defaults`, compared without a retain.
    var isDefaults: Bool { toOpaque() == Unmanaged.passUnretained(CollectionSlot.defaults).toOpaque() }
}
