import ArgumentParser

/// The `traitkit` command-line tool (DESIGN.md §4).
@main
struct TraitKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traitkit",
        abstract: "Run Lua scripts that drive UIKit-style trait hierarchies.",
        subcommands: [Run.self, Repl.self, Dump.self, Bench.self],
        defaultSubcommand: Repl.self)
}
