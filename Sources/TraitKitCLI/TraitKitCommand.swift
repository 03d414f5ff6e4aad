import ArgumentParser
import TraitKitLua

/// The `traitkit` command-line tool (DESIGN.md §4).
@main
struct TraitKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traitkit",
        abstract: "Run Lua scripts that drive UIKit-style trait hierarchies.",
        version: "traitkit \(version) (\(LuaRuntime.luaRelease))",
        subcommands: [Run.self, Repl.self, Dump.self, Bench.self])

    /// The release this tool is; `traitkit --version` prints it with the Lua it embeds.
    static let version = "0.1.0"

    /// `traitkit` alone is the REPL. Not a default subcommand: with one, a mistyped command
    /// (`traitkit runn app.lua`) was parsed as the REPL's arguments and answered with its usage.
    func run() throws {
        try Repl.parse([]).run()
    }
}
