import Synchronization

/// Records which traits are read while a layout or draw callback runs (R8 automatic trait
/// tracking). The hot read path pays one relaxed atomic load when no thread is recording.
@usableFromInline
enum TraitReadTracking {
    @usableFromInline static let activeRecorders = Atomic<Int>(0)

    /// Runs `body` and returns the traits read on this thread meanwhile.
    static func recording(_ body: () -> Void) -> TraitSet {
        let box = CurrentSlot.box
        let saved = box.recordedReads
        box.recordedReads = TraitSet()
        activeRecorders.add(1, ordering: .relaxed)
        body()
        activeRecorders.subtract(1, ordering: .relaxed)
        let read = box.recordedReads ?? TraitSet()
        box.recordedReads = saved
        return read
    }

    @usableFromInline
    static func noteRead(_ id: Int) {
        let box = CurrentSlot.box
        box.recordedReads?.insert(id)
    }
}

extension TraitCollection {
    /// Whether trait reads are being recorded for automatic trait tracking (R8) on some thread.
    /// A binding that answers reads from a cache of its own must not, while this is true: the
    /// read would not be recorded.
    public static var isRecordingReads: Bool {
        TraitReadTracking.activeRecorders.load(ordering: .relaxed) != 0
    }
}
