import ArgumentParser
import Glibc
import TraitKitLua

/// The `traitkit` command-line tool (DESIGN.md §4).
@main
struct TraitKitCommand: ParsableCommand {
    /// `traitkit FILE.lua ...` is `traitkit run FILE.lua ...`, as `lua FILE` runs a file; a
    /// first word that is neither a command nor a file is an error that names the nearest
    /// command (`traitkit rnu x.lua`).
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let commands = ["run", "repl", "dump", "bench", "stubs", "help"]
        if let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) {
            if first.hasSuffix(".lua") || access(first, F_OK) == 0 {
                arguments.insert("run", at: 0)
            } else {
                printError("traitkit: unknown command '\(first)'" + didYouMean(first, in: commands)
                    + " (commands: run, repl, dump, bench, stubs; or a script file)")
                Glibc.exit(64)  // EX_USAGE, as ArgumentParser exits on a usage error
            }
        }
        if let script = plainRun(arguments) {
            do { try Run.run(script) } catch { exit(withError: error) }
            return
        }
        main(arguments)
    }

    /// `run FILE [args]` with nothing before FILE: the script and its arguments, else nil.
    /// Such a run needs no parser (every word after FILE is the script's), and skipping
    /// ArgumentParser, which reflects over every option of the command, halves the tool's
    /// start-up; CommandLineTests checks that both ways run a script alike.
    static func plainRun(_ arguments: [String]) -> ScriptRun? {
        guard arguments.count >= 2, arguments[0] == "run" else { return nil }
        let file = arguments[1]
        guard file == "-" || !file.hasPrefix("-") else { return nil }
        return ScriptRun(file: file, arguments: Array(arguments.dropFirst(2)))
    }

    static let configuration = CommandConfiguration(
        commandName: "traitkit",
        abstract: "Run Lua scripts that drive UIKit-style trait hierarchies.",
        version: "traitkit \(version) (\(LuaRuntime.luaRelease))",
        subcommands: [Run.self, Repl.self, Dump.self, Bench.self, Stubs.self])

    /// The release this tool is; `traitkit --version` prints it with the Lua it embeds.
    static let version = "0.1.0"

    /// `traitkit` alone is the REPL. Not a default subcommand: with one, a mistyped command
    /// (`traitkit runn app.lua`) was parsed as the REPL's arguments and answered with its usage.
    func run() throws {
        try Repl.parse([]).run()
    }
}
