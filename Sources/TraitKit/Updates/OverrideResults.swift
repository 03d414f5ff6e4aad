/// The collections an update made by applying a node's overrides to its parent's collection,
/// kept for the other nodes of the same update that apply equal overrides to the same
/// collection: siblings and cousins overriding a trait the same way share one collection
/// instead of each making its own.
///
/// Collections are values (R3): which instance a node holds is seen only by identity, and
/// nodes of a region already share theirs. On a tree where many views override the same
/// way, this saves an allocation and a copy of the values per overriding node at every
/// update that reaches them, and a binding one wrapper per node the first time the
/// collections are read.
///
/// Kept per thread (`CurrentSlot.Box`), filled only while an update runs and emptied when
/// the outermost one ends: it holds at most `capacity` collections, and only meanwhile. The
/// overrides are copied in, not referenced: a callback may change a node's overrides in place
/// while the update runs.
struct OverrideResults {
    private struct Made {
        let parent: TraitCollection
        let overrides: [TraitOverrideStorage.Entry]
        let result: TraitCollection
    }

    /// Enough for the few ways siblings usually override, under the few collections the
    /// walk moves between as it goes down and back up (a miss costs a compare per entry,
    /// far less than the collection it then makes).
    private static let capacity = 16
    private var made: [Made] = []
    private var oldest = 0

    /// `parent` with `overrides` applied: a collection this update made already for the same
    /// parent collection and equal overrides, else a new one.
    mutating func applying(_ overrides: TraitOverrideStorage, to parent: TraitCollection) -> TraitCollection {
        let entries = overrides.entries
        // By index, not `for known in made`: that copies each entry out, a retain and a
        // release of its three references per entry looked at.
        for i in made.indices where made[i].parent === parent
            && made[i].overrides.elementsEqual(entries, by: { $0.id == $1.id && $0.value == $1.value }) {
            return made[i].result
        }
        let result = parent.applying(overrides)
        let entry = Made(parent: parent, overrides: Array(entries), result: result)
        if made.count < Self.capacity {
            made.append(entry)
        } else {
            made[oldest] = entry
            oldest = (oldest + 1) % Self.capacity
        }
        return result
    }

    /// The outermost update ended.
    mutating func removeAll() {
        made.removeAll()
        oldest = 0
    }
}
