import ArgumentParser

/// The `traitkit` command-line tool (DESIGN.md §4).
@main
struct TraitKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traitkit",
        abstract: "Run Lua scripts that drive UIKit-style trait hierarchies.",
        subcommands: [Run.self, Repl.self, Dump.self, Bench.self])

    /// `traitkit` alone is the REPL. Not a default subcommand: with one, a mistyped command
    /// (`traitkit runn app.lua`) was parsed as the REPL's arguments and answered with its usage.
    func run() throws {
        try Repl.parse([]).run()
    }
}
