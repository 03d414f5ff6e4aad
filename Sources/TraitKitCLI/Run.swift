import ArgumentParser
import Glibc
import TraitKit
import TraitKitLua

/// `traitkit run FILE [args] [--trait name=value]... [--sandbox] [--memory-limit MB] [--timeout S]`.
struct Run: ScriptCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a Lua script.")
    static let optionsWithValues = ScriptOptions.optionsWithValues

    @OptionGroup var options: ScriptOptions

    func run() throws {
        let script = options.script
        if options.watch {
            let reporter = ChangeReporter()
            try Watcher(script: script.file).run { Self.runWatched(script, reporter) }
        }
        try Self.run(script)
    }

    /// Runs the script once; on failure prints `traitkit: message` and throws ExitCode(1).
    static func run(_ script: ScriptRun) throws {
        let runtime = try script.makeRuntime()
        try script.run(in: runtime)
    }

    /// One run of `--watch`: the script's output, or its error, then what changed in the
    /// hierarchy since the last run that succeeded.
    private static func runWatched(_ script: ScriptRun, _ reporter: ChangeReporter) -> [String] {
        let runtime: LuaRuntime
        do { runtime = try script.makeRuntime() } catch { printError("traitkit: \(error)"); return [] }
        defer { runtime.close() }
        runtime.recordLoadedFiles()
        if let message = script.execute(in: runtime) {
            printError("traitkit: " + message)
            printError("traitkit: waiting for the next change")
        } else {
            reporter.report(HierarchySummary(HierarchySnapshot(runtime.application)))
        }
        return runtime.loadedFiles
    }
}

/// Runs `body` with file descriptor 1 pointing where 2 does, then puts it back.
func withStandardOutputOnStandardError(_ body: () throws -> Void) rethrows {
    fflush(nil)
    let saved = dup(1)
    dup2(2, 1)
    defer {
        fflush(nil)
        dup2(saved, 1)
        close(saved)
    }
    try body()
}


