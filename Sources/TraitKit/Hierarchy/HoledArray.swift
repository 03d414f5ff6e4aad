/// The scheme a node's `traitChildren` and a view's subview slots share: a removed entry
/// leaves a hole (a tombstone), so no entry after it moves and removal costs the same at any
/// position among any number of siblings (a shift would make tearing down a long list
/// quadratic). Holes at the end are dropped; once holes are half the entries the array is
/// compacted, which costs a step per entry (and `moved` for each entry kept), paid for by the
/// removals before it.
///
/// Insertion fills the hole just before its place when there is one. A long array also keeps
/// room at its front for insertion there (`insertSubview(_:at: 0)`, the usual way to put a
/// view behind its siblings): holes before the first entry, so that putting an entry first
/// moves none of the others. Opening room shifts every entry by the same amount, which the
/// owner records once (`TraitEnvironment.traitChildOrigin`) instead of in each entry's hint: a
/// shift per insertion would make building a list that way quadratic, and tearing it down
/// after too (every entry would sit that much further from where its hint says).
enum HoledArray {
    /// What an array's owner keeps beside it.
    struct Layout {
        /// How many entries are holes.
        var holes: UInt32 = 0
        /// How many of the holes are room before the first entry.
        var front: UInt32 = 0
    }

    /// Below this much room an insertion at the front shifts the entries after it by one: it
    /// costs less than keeping room.
    static let minimumRoom = 16

    /// The capacity an array takes with its first entry.
    static let minimumCapacity = 4

    /// Inserts `entry` before the `index`-th entry that is not a hole (after the last when
    /// there are fewer); returns where it went, and by how much the room it opened shifted
    /// every entry (0 when it opened none). An insertion before the end may also move the
    /// entries after it by one: their hints are that far off (`TraitEnvironment.hintWasOff`).
    @inline(__always)
    static func insert<Entry>(_ entry: Entry, at index: Int, _ entries: inout ContiguousArray<Entry>,
                              _ layout: inout Layout, hole: Entry,
                              isHole: (Entry) -> Bool) -> (at: Int, shift: UInt32) {
        let live = entries.count - Int(layout.holes)
        guard index < live else {
            // A first entry makes room for a few: growing one at a time (1, 2, 4) costs an
            // allocation, a copy and a free per step, and few parents keep one child only.
            if entries.capacity == 0 { entries.reserveCapacity(minimumCapacity) }
            entries.append(entry)
            return (entries.count - 1, 0)
        }
        let at = position(of: max(index, 0), in: entries, layout, isHole: isHole)
        if at > 0, isHole(entries[at - 1]) {
            entries[at - 1] = entry
            layout.holes -= 1
            layout.front = min(layout.front, UInt32(at - 1))
            return (at - 1, 0)
        }
        // Room for as many insertions as it leaves removals before the compaction's threshold
        // (a size that depends on the entries alone: a view's subview slots and trait
        // children must shift alike).
        let room = (entries.count - 2 * Int(layout.holes)) / 2
        guard at == 0, room >= minimumRoom else {
            entries.insert(entry, at: at)
            return (at, 0)
        }
        entries.insert(contentsOf: repeatElement(hole, count: room), at: 0)
        layout.holes += UInt32(room) - 1
        layout.front = UInt32(room) - 1
        entries[room - 1] = entry
        return (room - 1, UInt32(room))
    }

    /// Makes `entries[i]` a hole; returns whether that compacted the array. A compaction gives
    /// `moved` each entry kept and its new index.
    @inline(__always)
    static func remove<Entry>(at i: Int, _ entries: inout ContiguousArray<Entry>, _ layout: inout Layout,
                              hole: Entry, isHole: (Entry) -> Bool, moved: (Entry, Int) -> Void) -> Bool {
        entries[i] = hole
        layout.holes += 1
        if i == Int(layout.front) { layout.front += 1 }
        while let last = entries.last, isHole(last) {
            entries.removeLast()
            layout.holes -= 1
        }
        layout.front = min(layout.front, UInt32(entries.count))
        guard layout.holes >= 16, Int(layout.holes) * 2 >= entries.count else { return false }
        compact(&entries, &layout, isHole: isHole, moved: moved)
        return true
    }

    /// Drops the holes; `moved` learns each entry kept and its new index.
    static func compact<Entry>(_ entries: inout ContiguousArray<Entry>, _ layout: inout Layout,
                               isHole: (Entry) -> Bool, moved: (Entry, Int) -> Void) {
        var kept = 0
        for i in entries.indices where !isHole(entries[i]) {
            entries[kept] = entries[i]
            moved(entries[kept], kept)
            kept += 1
        }
        entries.removeLast(entries.count - kept)
        layout = Layout()
    }

    /// Where the entry at `index` among the entries that are not holes sits, holes counted:
    /// right away when every hole is room at the front, else a scan from the first entry.
    static func position<Entry>(of index: Int, in entries: ContiguousArray<Entry>, _ layout: Layout,
                                isHole: (Entry) -> Bool) -> Int {
        guard layout.holes > layout.front else { return Int(layout.front) + index }
        var live = 0
        for i in Int(layout.front)..<entries.count where !isHole(entries[i]) {
            if live == index { return i }
            live += 1
        }
        return entries.count
    }
}
