import CThreadStack

/// An update run from inside a callback (`updateTraitsIfNeeded`, `layoutIfNeeded`) recurses on
/// the native stack: its walk goes down as many levels as the tree has, up to
/// `HierarchyDepth.limit`, and its callbacks may start another. Lua bounds how often calls
/// through C nest (about 200 times), not how much stack each takes, so without a check a
/// script could overflow the stack and kill the process. A nested update therefore starts only
/// while room for a whole walk is left, and is refused with an error otherwise.
enum StackRoom {
    /// The room a nested update needs: a walk, layout and a dump of the deepest tree allowed
    /// take about 3 MB in a debug build (under 1 MB optimised); at most half the thread's stack.
    static func needed(stackSize: Int) -> Int { Swift.min(4 << 20, stackSize / 2) }

    /// Throws when this thread's stack has less room left than a nested update needs.
    static func check() throws(TraitError) {
        let box = CurrentSlot.box
        guard box.updateDepth > 0, let stack = box.stack else { return }
        let here = UInt(bitPattern: approximateStackPointer())
        guard here > stack.floor, Int(here - stack.floor) < needed(stackSize: stack.size) else { return }
        throw .nestedTooDeeply(updates: box.updateDepth)
    }

    /// The lowest address and the size of this thread's stack, or nil where the platform does
    /// not say (the check is then skipped).
    static func currentThreadStack() -> (floor: UInt, size: Int)? {
        var floor: UInt = 0
        var size = 0
        guard tk_thread_stack(&floor, &size) == 0 else { return nil }
        return (floor, size)
    }

    @inline(never)
    private static func approximateStackPointer() -> UnsafeMutableRawPointer {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UnsafeMutableRawPointer($0) }
    }
}
