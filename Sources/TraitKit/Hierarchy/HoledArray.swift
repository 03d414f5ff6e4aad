/// The scheme a node's `traitChildren` and a view's subview slots share: a removed entry
/// leaves a hole (a tombstone), so no entry after it moves and removal costs the same at any
/// position among any number of siblings (a shift would make tearing down a long list
/// quadratic). Holes at the end are dropped; once holes are half the entries the array is
/// compacted, which costs a step per entry (and `moved` for each entry kept), paid for by the
/// removals before it.
enum HoledArray {
    /// Makes `entries[i]` a hole; returns whether that compacted the array.
    @inline(__always)
    static func remove<Entry>(at i: Int, _ entries: inout ContiguousArray<Entry>, holes: inout UInt32, hole: Entry,
                              isHole: (Entry) -> Bool, moved: (Entry, Int) -> Void) -> Bool {
        entries[i] = hole
        holes += 1
        while let last = entries.last, isHole(last) {
            entries.removeLast()
            holes -= 1
        }
        guard holes >= 16, Int(holes) * 2 >= entries.count else { return false }
        compact(&entries, holes: &holes, isHole: isHole, moved: moved)
        return true
    }

    /// Drops the holes; `moved` learns each entry kept and its new index.
    static func compact<Entry>(_ entries: inout ContiguousArray<Entry>, holes: inout UInt32,
                               isHole: (Entry) -> Bool, moved: (Entry, Int) -> Void) {
        var kept = 0
        for i in entries.indices where !isHole(entries[i]) {
            entries[kept] = entries[i]
            moved(entries[kept], kept)
            kept += 1
        }
        entries.removeLast(entries.count - kept)
        holes = 0
    }

    /// Where the entry at `index` among the entries that are not holes sits, holes counted: a
    /// scan of the array.
    static func position<Entry>(of index: Int, in entries: ContiguousArray<Entry>, holes: UInt32,
                                isHole: (Entry) -> Bool) -> Int {
        guard holes > 0 else { return index }
        var live = 0
        for i in entries.indices where !isHole(entries[i]) {
            if live == index { return i }
            live += 1
        }
        return entries.count
    }
}
