import CLua
import TraitKit

/// `--memory-limit` and `--timeout` (tk_limits.h), and the run they end.
extension LuaRuntime {
    /// `--memory-limit`: bytes Lua may hold (0: none). Going over it ends the run (`tk_hook`).
    public var memoryLimit: Int {
        get { limits.pointee.limit }
        set {
            tk_guard_sethook(L, newValue > 0 || limits.pointee.deadline > 0 ? 1 : 0)
            limits.pointee.limit = newValue
            tk_setcounting(L, limits, newValue > 0 || countsAllocations ? 1 : 0)
            tk_resethook(L)
        }
    }

    /// Whether the allocator counts what Lua allocates (`tk_Limits.used`, `.allocations`).
    /// Off, a state without a memory limit allocates as `lua` does; `traitkit bench` turns
    /// it on for its allocation figures.
    public var countsAllocations: Bool {
        get { countingAllocations }
        set {
            countingAllocations = newValue
            tk_setcounting(L, limits, newValue || memoryLimit > 0 ? 1 : 0)
        }
    }

    /// `--timeout`: seconds from now after which running Lua code is stopped.
    public var timeout: Double? {
        get { limits.pointee.deadline > 0 ? limits.pointee.timeout : nil }
        set {
            tk_guard_sethook(L, newValue != nil || limits.pointee.limit > 0 ? 1 : 0)
            limits.pointee.timeout = newValue ?? 0
            limits.pointee.deadline = newValue.map { tk_now() + $0 } ?? 0
            tk_resethook(L)
        }
    }

    /// Gives a new run (a script, a REPL input) the budget back after a limit ended the last:
    /// the limits stay, the end they caused is forgotten.
    public func beginRun() {
        limits.pointee.ended = 0
        limits.pointee.memory_error = 0
        tk_resethook(L)
        tk_forget_error(L)
    }

    /// Whether a limit ended the current run (it stays ended until `beginRun`).
    public var limitEnded: Bool { limits.pointee.ended != 0 }
}
