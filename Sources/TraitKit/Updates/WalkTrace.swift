import CWalkTrace

/// Record-and-replay prefetching: why the walk reports what it touches (issue 7).
///
/// On a large tree a flush is a chain of loads through objects reached by pointer: a node, its
/// children array, the child it enters, that child's extras and registrations, and then what
/// a binding's handler touches. Each is likely a cache miss, and the CPU cannot start one before
/// the load it depends on returns, so a flush that fires handlers across 100k nodes waits on
/// memory most of its time, however few instructions it runs. What it will touch is known,
/// though, whenever the hierarchy walks the way it did last time, which is what updates usually
/// do: the same override flipped, a theme toggled back and forth.
///
/// So each outermost update records the addresses its walk touches, in order, and the next one
/// that takes the same path prefetches, at each touch, the address the recorded walk touched a
/// few handlers later (`CWalkTrace`). Two walks are kept, so updates alternating between two
/// kinds of change each follow their own; a walk that strays (a view added or removed since) finds
/// its place again nearby, and one that goes elsewhere stops following. A recorded address is
/// only ever prefetched, never read: an object freed since costs a wasted prefetch, not a fault.
///
/// Touches are hints, so the walk reports only objects that are likely misses on a large tree
/// and that it is about to load anyway; the binding adds its own (the node's userdata, its
/// handler). Per thread; on unless the environment sets `TRAITKIT_PREFETCH=0`.
public enum WalkTrace {
    /// Reports that the walk is about to load the object at `address`. Call only while an update
    /// runs (a binding's handler), and in the same order each time for the same walk.
    @inlinable @inline(__always)
    public static func touch(_ address: UnsafeRawPointer?) {
        if let address { tk_trace_touch(address) }
    }

    @inline(__always)
    static func touch<T: AnyObject>(_ object: Unmanaged<T>) {
        tk_trace_touch(object.toOpaque())
    }

    /// A node's children array, from its reference count (the walk's first load: borrowing the
    /// array checks it is unique), 24 bytes before the elements in Swift's array header. A
    /// touch prefetches the two lines from there, which hold at least 6 elements; a longer
    /// array gets a touch per 9 more. (Touched from the count, 8 bytes later, one array in
    /// four had its first load missed.)
    @inline(__always)
    static func touch(_ children: UnsafeBufferPointer<TraitChild>) {
        guard let elements = children.baseAddress else { return }
        tk_trace_touch(UnsafeRawPointer(elements) - 24)
        var next = 6
        while next < children.count {
            tk_trace_touch(elements + next)
            next += 9
        }
    }

    /// Whether this thread records and replays its walks.
    public static var isEnabled: Bool {
        get { tk_trace_is_enabled() != 0 }
        set { tk_trace_set_enabled(newValue ? 1 : 0) }
    }

    /// The last update on this thread: how many touches its walk reported, and how many of them
    /// were where a recorded walk had them (then the ones after them were prefetched).
    public static var lastUpdate: (touches: Int, followed: Int) {
        (tk_trace_touches(), tk_trace_followed())
    }

    /// An outermost update begins on this thread.
    static func begin() { tk_trace_begin() }

    /// The outermost update on this thread ends.
    static func end() { tk_trace_end() }
}
