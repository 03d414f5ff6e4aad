/// The runtime as closures handed to the engine see it: nil once the state is closed.
///
/// A weak reference would do the same, but it gives the runtime a side table, and every
/// retain and release of the runtime then takes Swift's slow path (a tenth of the cost of a
/// Lua handler called from an update). The runtime clears the link when it closes, before it
/// can go away.
final class RuntimeLink {
    private var ref: Unmanaged<LuaRuntime>?

    init(_ runtime: LuaRuntime) { ref = .passUnretained(runtime) }

    var runtime: LuaRuntime? {
        get { ref?.takeUnretainedValue() }
        set { ref = newValue.map(Unmanaged.passUnretained) }
    }

    /// Runs `body` with the runtime, without retaining it (a fired Lua handler would pay an
    /// atomic increment and decrement); nil once the state is closed.
    @inline(__always)
    func withRuntime<Result>(_ body: (LuaRuntime) throws -> Result) rethrows -> Result? {
        try ref?._withUnsafeGuaranteedRef(body)
    }
}
