import ArgumentParser
import Glibc
import TraitKit

/// `traitkit run FILE [args] [--trait name=value]... [--sandbox] [--memory-limit MB] [--timeout S]`.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a Lua script.")

    @OptionGroup var options: ScriptOptions

    func run() throws {
        let runtime = try options.makeRuntime()
        try options.run(in: runtime)
    }
}

/// `traitkit dump FILE [--json]`: runs the script, then prints every screen's hierarchy.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a script, then print every screen's hierarchy.")

    @Flag(help: "Print JSON (names, classes, overrides and resolved traits) instead of a text tree.")
    var json = false

    @Flag(help: "Show every node's resolved values (those not at their default) in the text tree.")
    var resolved = false

    @OptionGroup var options: ScriptOptions

    func run() throws {
        let runtime = try options.makeRuntime()
        // Standard output is the dump alone, so `traitkit dump app.lua --json | jq` works
        // whatever the script prints: its output (print, io.write) goes to standard error.
        try withStandardOutputOnStandardError {
            try options.run(in: runtime)
            do { try runtime.update() } catch {
                printError("traitkit: \(error)")
                throw ExitCode(1)
            }
        }
        let screens = runtime.application.screens
        if screens.isEmpty { printError("traitkit dump: the script left no screens (a tree starts at a tk.Screen)") }
        if json {
            print(JSON.array(screens.map { $0.dumpJSON() }).serialized(indent: 2))
        } else if !screens.isEmpty {
            print(screens.map { $0.treeDescription(resolved: resolved) }.joined(separator: "\n"))
        }
    }
}

/// Runs `body` with file descriptor 1 pointing where 2 does, then puts it back.
private func withStandardOutputOnStandardError(_ body: () throws -> Void) rethrows {
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


