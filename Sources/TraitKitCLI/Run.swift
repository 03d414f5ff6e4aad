import ArgumentParser
import Glibc
import TraitKit
import TraitKitLua

/// `traitkit run FILE [args] [--trait name=value]... [--sandbox] [--memory-limit MB] [--timeout S]`.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a Lua script.")

    @OptionGroup var options: ScriptOptions

    func run() throws {
        if options.watch {
            let reporter = ChangeReporter()
            try Watcher(script: options.file).run { runWatched(reporter) }
        }
        let runtime = try options.makeRuntime()
        try options.run(in: runtime)
    }

    /// One run of `--watch`: the script's output, or its error, then what changed in the
    /// hierarchy since the last run that succeeded.
    private func runWatched(_ reporter: ChangeReporter) -> [String] {
        let runtime: LuaRuntime
        do { runtime = try options.makeRuntime() } catch { printError("traitkit: \(error)"); return [] }
        defer { runtime.close() }
        runtime.recordLoadedFiles()
        if let message = options.execute(in: runtime) {
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


