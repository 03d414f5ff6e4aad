import CLua
import CSupport

/// Ctrl-C in the REPL (DESIGN.md §5): while a chunk runs, SIGINT sets a hook that raises
/// "interrupted" inside Lua, as lua.c does; the session goes on.
///
/// The handler and its state are in the `CSupport` C target: one copy per process.
extension LuaRuntime {
    /// Makes Ctrl-C stop the running chunk with an error instead of ending the process.
    public func installInterruptHandler() {
        tk_install_sigint()
    }

    /// Whether Ctrl-C was pressed since the last call (at the prompt, it cancels the line).
    public func takeInterrupt() -> Bool {
        tk_take_sigint() != 0
    }

    /// Arms the handler for this state while a chunk runs; disarming puts the hook back to
    /// what `--timeout` and `--memory-limit` need.
    func armInterrupt(_ on: Bool) {
        if on {
            _ = tk_take_sigint()
            tk_arm_interrupt(L)
        } else {
            tk_arm_interrupt(nil)
            _ = tk_take_sigint()
            tk_resethook(L)
        }
    }
}
